import {
  CompiledQuery,
  PrimitiveValueListNode,
  ValuesNode,
  InsertQueryNode,
  createQueryId,
  type ColumnNode,
  type OperationNode,
  type PostgresQueryCompiler,
  type QueryResult,
  type RootOperationNode,
} from 'kysely';

/** PostgreSQL takes at most 65,535 parameters per statement; merged statements stay well below. */
const MAX_PARAMETERS = 30_000;

/** One statement waiting to be sent, and its caller. */
export interface QueuedStatement {
  query: CompiledQuery;
  /** One array of values per row (an INSERT may carry several). */
  rows: unknown[][];
  resolve(result: QueryResult<unknown>): void;
  reject(error: unknown): void;
}

/** What a statement is, for merging: statements of one `key` can go as one, rows of one `unique` value not. */
export interface MergeableStatement {
  key: string;
  rows: unknown[][];
  unique(row: unknown[]): string | undefined;
  merge(
    statements: QueuedStatement[],
    compiler: PostgresQueryCompiler,
  ): {
    query: CompiledQuery;
    resultOf(statement: QueuedStatement, result: QueryResult<unknown>): QueryResult<unknown>;
  };
}

/** Analyses kept per query tree: a prepared query (db/prepared-query.ts) sends the same tree every time. */
const shapes = new WeakMap<RootOperationNode, Shape | null>();

type Shape = InsertShape | UpdateShape;

interface InsertShape {
  kind: 'insert';
  node: InsertQueryNode;
  key: string;
  columns: number;
  /** Indexes of the ON CONFLICT columns in a row. */
  conflict: number[];
}

interface UpdateShape {
  kind: 'update';
  table: string;
  /** Columns set, in parameter order: to the parameter, or (`add`) to the column plus it. */
  sets: { column: string; add: boolean }[];
  /** Columns matched by equality, after the sets in parameter order. */
  keys: string[];
  returning: string[];
}

/**
 * How a statement of a group-commit batch can go with others of its kind, read from kysely's query tree:
 * an INSERT of plain values (an upsert whose update takes no parameter, as `excluded.x`), merged as one
 * multi-row INSERT; an UPDATE of one row by key whose values are plain parameters (or added to the column),
 * merged as one `update … from json_populate_recordset(…)`. Undefined for any other statement.
 */
export function mergeableStatement(query: CompiledQuery): MergeableStatement | undefined {
  let shape = shapes.get(query.query);
  if (shape === undefined) {
    shape = insertShape(query.query) ?? updateShape(query.query) ?? null;
    shapes.set(query.query, shape);
  }
  if (!shape) return undefined;
  return shape.kind === 'insert' ? mergeableInsert(shape, query.parameters) : mergeableUpdate(shape, query.parameters);
}

/** The statements as few groups as possible: a statement's rows stay together, rows of one unique value apart. */
export function splitForMerge(mergeable: MergeableStatement, statements: QueuedStatement[]): QueuedStatement[][] {
  if (statements.length === 1) return [statements];
  const groups: { statements: QueuedStatement[]; keys: Set<string>; parameters: number }[] = [];
  for (const statement of statements) {
    const keys = statement.rows.map((row) => mergeable.unique(row)).filter((key) => key !== undefined);
    const size = statement.rows.reduce((sum, row) => sum + row.length, 0);
    let group = groups.find(
      (candidate) => candidate.parameters + size <= MAX_PARAMETERS && !keys.some((key) => candidate.keys.has(key)),
    );
    if (!group) groups.push((group = { statements: [], keys: new Set(), parameters: 0 }));
    group.statements.push(statement);
    for (const key of keys) group.keys.add(key);
    group.parameters += size;
  }
  return groups.map((group) => group.statements);
}

function insertShape(node: RootOperationNode): InsertShape | undefined {
  if (!InsertQueryNode.is(node)) return undefined;
  const { into, columns, values, onConflict } = node;
  if (!into || !columns || !values || node.returning || node.with || node.ignore || node.orAction) return undefined;
  if (node.replace || node.explain || node.defaultValues || node.endModifiers || node.top || node.output)
    return undefined;
  if (!ValuesNode.is(values) || !values.values.every((row) => isPlainValueList(row, columns.length))) return undefined;
  const names = columns.map(columnName);
  let conflict: number[] = [];
  if (onConflict) {
    if (!onConflict.columns || onConflict.constraint || onConflict.indexExpression) return undefined;
    conflict = onConflict.columns.map((column) => names.indexOf(columnName(column)));
    if (conflict.includes(-1)) return undefined;
  }
  const key = `insert ${tableName(into)} (${names.join(',')}) ${onConflict ? JSON.stringify(onConflict) : ''}`;
  return { kind: 'insert', node, key, columns: columns.length, conflict };
}

/** A row of parameters: a primitive list, or a list of (non-immediate) values. */
function isPlainValueList(row: OperationNode, width: number): boolean {
  if (PrimitiveValueListNode.is(row)) return row.values.length === width;
  if (row.kind !== 'ValueListNode') return false;
  const { values } = row as OperationNode & { values: readonly OperationNode[] };
  return values.length === width && values.every(isParameter);
}

function mergeableInsert(shape: InsertShape, parameters: readonly unknown[]): MergeableStatement | undefined {
  // Every parameter is a value of a row, in order (the ON CONFLICT update takes none).
  if (parameters.length === 0 || parameters.length % shape.columns !== 0) return undefined;
  const rows: unknown[][] = [];
  for (let start = 0; start < parameters.length; start += shape.columns)
    rows.push(parameters.slice(start, start + shape.columns));
  const { conflict } = shape;
  return {
    key: shape.key,
    rows,
    unique: (row) => (conflict.length > 0 ? JSON.stringify(conflict.map((at) => row[at])) : undefined),
    merge(statements, compiler) {
      const merged = InsertQueryNode.cloneWith(shape.node, {
        values: ValuesNode.create(
          statements.flatMap((statement) => statement.rows.map((row) => PrimitiveValueListNode.create(row))),
        ),
      });
      return {
        query: compiler.compileQuery(merged, createQueryId()),
        // Each row inserts or (upsert) updates one row.
        resultOf: (statement) => ({ rows: [], numAffectedRows: BigInt(statement.rows.length) }),
      };
    },
  };
}

function updateShape(node: RootOperationNode): UpdateShape | undefined {
  if (node.kind !== 'UpdateQueryNode') return undefined;
  const update = node;
  const { table, updates, where } = update;
  if (!table || table.kind !== 'TableNode' || !updates || !where) return undefined;
  if (update.from || update.joins || update.with || update.explain || update.endModifiers) return undefined;
  if (update.limit || update.top || update.output || update.orderBy) return undefined;
  const sets: UpdateShape['sets'] = [];
  for (const { column, value } of updates) {
    const name = column.kind === 'ColumnNode' ? columnName(column as ColumnNode) : undefined;
    if (name === undefined) return undefined;
    if (isParameter(value)) sets.push({ column: name, add: false });
    else if (isAddition(value, name)) sets.push({ column: name, add: true });
    else return undefined;
  }
  const keys: string[] = [];
  for (const condition of conjuncts(where.where)) {
    const name = equalsParameter(condition);
    if (name === undefined) return undefined;
    keys.push(name);
  }
  const returning: string[] = [];
  for (const { selection } of update.returning?.selections ?? []) {
    const name = referencedColumn(selection);
    if (name === undefined) return undefined;
    returning.push(name);
  }
  const columns = [...sets.map((set) => set.column), ...keys];
  if (new Set(columns).size !== columns.length) return undefined;
  return { kind: 'update', table: tableName(table), sets, keys, returning };
}

/**
 * Merged as `update "t" set "a" = v."a", "b" = "t"."b" + v."b" from json_populate_recordset(null::"t", $1) as v
 * where "t"."k" = v."k" returning "t"."k", …`: the rows as JSON typed by the table itself, each statement given
 * the rows of its key. Our tables keep JSON documents in text columns: a json/jsonb column would take a
 * string value as a JSON string here, where the statement alone would parse it, so such a table must not be
 * updated this way.
 */
function mergeableUpdate(shape: UpdateShape, parameters: readonly unknown[]): MergeableStatement | undefined {
  const { sets, keys, returning } = shape;
  if (parameters.length !== sets.length + keys.length) return undefined;
  // Only values JSON carries as they are (no Date, Buffer or bigint).
  const plain = (value: unknown) =>
    value === null || typeof value === 'string' || typeof value === 'boolean' || Number.isFinite(value);
  if (!parameters.every(plain)) return undefined;
  const columns = [...sets.map((set) => set.column), ...keys];
  const keyOf = (values: readonly unknown[]) => JSON.stringify(values.map(String));
  const table = quote(shape.table);
  return {
    key: `update ${shape.table} ${sets.map((set) => `${set.column}${set.add ? '+' : ''}`).join(',')} where ${keys.join(',')} returning ${returning.join(',')}`,
    rows: [[...parameters]],
    unique: (row) => keyOf(row.slice(sets.length)),
    merge(statements) {
      const records = statements.map(({ rows: [values] }) =>
        Object.fromEntries(columns.map((column, index) => [column, values[index]])),
      );
      const assignments = sets.map(({ column, add }) =>
        add
          ? `${quote(column)} = ${table}.${quote(column)} + v.${quote(column)}`
          : `${quote(column)} = v.${quote(column)}`,
      );
      const matches = keys.map((column) => `${table}.${quote(column)} = v.${quote(column)}`);
      const returned = [...new Set([...keys, ...returning])];
      const sql =
        `update ${table} set ${assignments.join(', ')} from json_populate_recordset(null::${table}, $1) as v ` +
        `where ${matches.join(' and ')} returning ${returned.map((column) => `${table}.${quote(column)}`).join(', ')}`;
      return {
        query: CompiledQuery.raw(sql, [JSON.stringify(records)]),
        resultOf(statement, result) {
          const wanted = keyOf(statement.rows[0].slice(sets.length));
          const rows = (result.rows as Record<string, unknown>[]).filter(
            (found) => keyOf(keys.map((column) => found[column])) === wanted,
          );
          const projected = rows.map((found) => Object.fromEntries(returning.map((column) => [column, found[column]])));
          return { rows: projected, numAffectedRows: BigInt(rows.length) };
        },
      };
    },
  };
}

function isParameter(node: OperationNode): boolean {
  return node.kind === 'ValueNode' && !(node as OperationNode & { immediate?: boolean }).immediate;
}

/** `"column" + <parameter>` */
function isAddition(node: OperationNode, column: string): boolean {
  if (node.kind !== 'BinaryOperationNode') return false;
  const { leftOperand, operator, rightOperand } = node as OperationNode & {
    leftOperand: OperationNode;
    operator: OperationNode & { operator?: string };
    rightOperand: OperationNode;
  };
  return referencedColumn(leftOperand) === column && operator.operator === '+' && isParameter(rightOperand);
}

/** The column of `"column" = <parameter>`, else undefined. */
function equalsParameter(node: OperationNode): string | undefined {
  if (node.kind !== 'BinaryOperationNode') return undefined;
  const { leftOperand, operator, rightOperand } = node as OperationNode & {
    leftOperand: OperationNode;
    operator: OperationNode & { operator?: string };
    rightOperand: OperationNode;
  };
  return operator.operator === '=' && isParameter(rightOperand) ? referencedColumn(leftOperand) : undefined;
}

/** The conditions of a chain of ANDs. */
function conjuncts(node: OperationNode): OperationNode[] {
  if (node.kind !== 'AndNode') return [node];
  const { left, right } = node as OperationNode & { left: OperationNode; right: OperationNode };
  return [...conjuncts(left), ...conjuncts(right)];
}

/** The name of a bare column (`"c"`, unqualified), else undefined. */
function referencedColumn(node: OperationNode): string | undefined {
  if (node.kind === 'ColumnNode') return columnName(node as ColumnNode);
  if (node.kind !== 'ReferenceNode') return undefined;
  const reference = node as OperationNode & { column: OperationNode; table?: OperationNode };
  return !reference.table && reference.column.kind === 'ColumnNode'
    ? columnName(reference.column as ColumnNode)
    : undefined;
}

function columnName(column: ColumnNode): string {
  return column.column.name;
}

function tableName(table: OperationNode): string {
  const { schema, identifier } = (
    table as OperationNode & {
      table: { schema?: { name: string }; identifier: { name: string } };
    }
  ).table;
  return schema ? `${schema.name}.${identifier.name}` : identifier.name;
}

function quote(identifier: string): string {
  return identifier
    .split('.')
    .map((part) => `"${part.replaceAll('"', '""')}"`)
    .join('.');
}
