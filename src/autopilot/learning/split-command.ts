/**
 * Splits a command line into arguments the way a POSIX shell would quote them (single quotes, double
 * quotes, backslash escapes), without running a shell: no expansion, pipes or redirections.
 */
export function splitCommand(command: string): string[] {
  const args: string[] = [];
  let current = '';
  let quote: '"' | "'" | null = null;
  let started = false;
  for (let index = 0; index < command.length; index += 1) {
    const char = command[index];
    if (quote === "'") {
      if (char === "'") quote = null;
      else current += char;
    } else if (char === '\\' && index + 1 < command.length && (quote === null || /["\\$`]/.test(command[index + 1]))) {
      current += command[++index];
    } else if (quote === '"') {
      if (char === '"') quote = null;
      else current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      started = true;
    } else if (/\s/.test(char)) {
      if (started || current) args.push(current);
      current = '';
      started = false;
    } else {
      current += char;
    }
  }
  if (quote) throw new Error(`unterminated ${quote} quote in command: ${command}`);
  if (started || current) args.push(current);
  return args;
}
