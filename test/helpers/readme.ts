/**
 * The README's shell examples as a test runs them (test/integration/readme-run.test.ts): its
 * ```sh blocks in order, each with the heading it sits under and, when an HTML comment
 * `<!-- readme-test: not run: REASON -->` comes just before it, the reason it is not run; the
 * command lines of a block (continued lines joined); the ports they name, and those lines with
 * each port replaced by a free one; which lines start a server (a command that runs until
 * Ctrl+C, or a line ending in `&`); and the placeholders (`<ID>`, `<KEY>`, …) a reader fills in.
 */

export interface ReadmeBlock {
  /** 1-based line of the opening fence. */
  line: number;
  heading: string;
  code: string;
  /** Why the block is not run (its readme-test comment); undefined when it runs. */
  notRun?: string;
}

const NOT_RUN = /<!--\s*readme-test:\s*not run:\s*(.+?)\s*-->\s*$/;

export function readmeBlocks(readme: string): ReadmeBlock[] {
  const lines = readme.split('\n');
  const blocks: ReadmeBlock[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    if (/^#{1,4} /.test(text)) heading = text.replace(/^#+ /, '');
    if (text.startsWith('```')) {
      const lang = text.slice(3).trim();
      const start = i;
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i]!.startsWith('```'); i++) body.push(lines[i]!);
      if (lang !== 'sh') continue;
      let before = start - 1;
      while (before >= 0 && lines[before]!.trim() === '') before--;
      const notRun = before >= 0 ? NOT_RUN.exec(lines[before]!)?.[1] : undefined;
      blocks.push({ line: start + 1, heading, code: body.join('\n'), ...(notRun ? { notRun } : {}) });
    }
  }
  return blocks;
}

/** A block's commands: continued lines (`\` at the end) joined; blank and comment lines left out. */
export const commandLines = (code: string): string[] =>
  code
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));

/** A port in a command: after a port option, in a local URL, or in PORT=/UI_PORT=. */
const PORT =
  /((?:^|\s)(?:-p|-P|--port|--ui-port|--mcp-port|--default-port)\s+|(?:localhost|127\.0\.0\.1|0\.0\.0\.0):|\b(?:UI_)?PORT=)(\d{4,5})\b/g;

/** The ports the lines name (0 aside: it is already "any free port"). */
export const portsOf = (lines: string[]): number[] => [
  ...new Set(lines.flatMap((l) => [...l.matchAll(PORT)].map((m) => Number(m[2]))).filter((p) => p !== 0)),
];

/** The line with each port it names replaced as `map` says. */
export const withPorts = (line: string, map: Map<number, number>): string =>
  line.replace(PORT, (all, before: string, port: string) =>
    map.has(Number(port)) ? `${before}${map.get(Number(port))}` : all,
  );

/**
 * What kind of server a line starts ("serve", "ui", "mcp", "npm start"), with whether it was
 * sent to the background (`&`); undefined for a command that ends by itself.
 */
export function serverOf(line: string): { kind: string; background: boolean } | undefined {
  const code = line.replace(/\s+#.*$/, '').trim();
  const background = code.endsWith('&') && !code.endsWith('&&');
  const m = /(?:^|\|\s*)(?:\w+=\S+\s+)*(mockdev (serve|ui|mcp --http)\b|npm start)/.exec(code);
  if (m) return { kind: m[2]?.split(' ')[0] ?? 'npm start', background };
  return background ? { kind: code, background } : undefined;
}

/** The placeholders of a line (`<ID>`, `<KEY>`, `<RUN>`), in order. */
export const placeholdersOf = (line: string): string[] =>
  [...line.replace(/\s+#.*$/, '').matchAll(/<([A-Z_]+)>/g)].map((m) => m[1]!);
