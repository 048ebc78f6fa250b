import { spawn, type ChildProcess } from 'node:child_process';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, cliEnv, json } from './cli.js';
import { runCliInProcess } from './cli-inprocess.js';
import { waitUntil } from './wait.js';

export interface ServeHandle {
  child: ChildProcess;
  url: string;
  port: number;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL after a bound; resolves with the exit code. */
  stop: () => Promise<number | null>;
}

/** Spawns `mockdev serve …` (port 0 unless given) and waits for the URL it prints. */
export async function startServe(
  args: string[],
  options: { dataDir: string; cwd?: string; env?: Record<string, string>; timeoutMs?: number },
): Promise<ServeHandle> {
  const withPort = args.includes('-p') || args.includes('--port') ? args : [...args, '-p', '0'];
  const child = spawn(process.execPath, [CLI, 'serve', ...withPort], {
    cwd: options.cwd ?? options.dataDir,
    env: cliEnv(options.dataDir, options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let exitCode: number | null | undefined;
  void exited.then((c) => (exitCode = c));
  const stop = async () => {
    if (exitCode === undefined) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  const printedUrl = () => /(https?:\/\/[^\s)]+:(\d+))/.exec(out);
  try {
    await waitUntil(
      () => printedUrl() || exitCode !== undefined,
      'serve to print its URL',
      options.timeoutMs ?? 20_000,
    );
  } catch {
    await stop();
    throw new Error(`serve did not print its URL in time\nstdout: ${out}\nstderr: ${err}`);
  }
  const m = printedUrl();
  if (!m)
    throw new Error(`serve exited (${exitCode}) before printing its URL\nstdout: ${out}\nstderr: ${err}`);
  return { child, url: m[1]!, port: Number(m[2]), stdout: () => out, stderr: () => err, exited, stop };
}

export { waitUntil };

/**
 * Creates a data-dir project (the CLI in-process) and writes its endpoints.json directly (fast,
 * no CLI per endpoint).
 */
export async function makeProject(
  dataDir: string,
  name: string,
  endpoints: Record<string, unknown>[],
): Promise<{ id: string; dir: string }> {
  const created = await runCliInProcess(['project', 'create', name, '--json'], { dataDir });
  if (created.code !== 0) throw new Error(created.stderr);
  const { id } = json<{ id: string }>(created);
  const dir = join(dataDir, 'projects', id);
  writeEndpoints(dir, endpoints);
  return { id, dir };
}

let seq = 0;
/** Writes endpoints.json with ids and defaults filled in. */
export function writeEndpoints(dir: string, endpoints: Record<string, unknown>[]): void {
  const full = endpoints.map((e) => ({
    id: `ep${++seq}`,
    name: `endpoint ${seq}`,
    method: 'GET',
    status: 200,
    headers: {},
    body: '',
    contentType: 'application/json',
    delay: 0,
    enabled: true,
    kind: 'mock',
    variations: [],
    ...e,
  }));
  const tmp = join(dir, `.endpoints.${process.pid}.${seq}.tmp`);
  writeFileSync(tmp, JSON.stringify(full, null, 2));
  renameSync(tmp, join(dir, 'endpoints.json')); // the same atomic replace the store does
}
