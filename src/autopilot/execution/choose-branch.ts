const ALWAYS = new Set(['', '*', 'default', 'else', 'always', 'true', 'otherwise']);

/**
 * The branch a node's output takes: the first whose condition holds. A condition is a phrase the output
 * contains (case-insensitive; `output contains "x"` and `contains: x` read the same), or one of
 * default/else/always/true/* which always holds. Undefined when none holds.
 */
export function chooseBranch<T extends { condition: string; target: string }>(
  branches: T[],
  output: string,
): T | undefined {
  const text = output.toLowerCase();
  return branches.find((branch) => {
    const condition = branch.condition.trim().toLowerCase();
    if (ALWAYS.has(condition)) return true;
    const phrase = condition
      .replace(/^(output\s+)?contains\s*:?\s*/, '')
      .replace(/^["'](.*)["']$/, '$1')
      .trim();
    return phrase !== '' && text.includes(phrase);
  });
}
