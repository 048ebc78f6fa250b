import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { CLI, cliEnv } from './cli.js';
import { waitUntil } from './wait.js';

export interface UiHandle {
  child: ChildProcess;
  /** http://127.0.0.1:PORT, as printed. */
  url: string;
  port: number;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code (null and the signal when killed) once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends `signal` (SIGTERM by default), then SIGKILL after a bound; resolves as `exited`. */
  stop: (signal?: NodeJS.Signals) => Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Spawns the built `mockdev ui …` (port 0 unless given) and waits for the URL it prints. */
export async function startUi(
  args: string[],
  options: { dataDir: string; env?: Record<string, string | undefined>; timeoutMs?: number },
): Promise<UiHandle> {
  const withPort = args.includes('-p') || args.includes('--port') ? args : [...args, '-p', '0'];
  const child = spawn(process.execPath, [CLI, 'ui', ...withPort], {
    cwd: options.dataDir,
    env: cliEnv(options.dataDir, options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  let done = false;
  void exited.then(() => (done = true));
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (!done) child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const result = await exited;
    clearTimeout(timer);
    return result;
  };
  const printed = () => /admin API on (https?:\/\/[^\s)]+:(\d+))/.exec(out + err);
  try {
    await waitUntil(() => printed() || done, 'mockdev ui to print its URL', options.timeoutMs ?? 20_000);
  } catch {
    await stop('SIGKILL');
    throw new Error(`mockdev ui did not print its URL in time\nstdout: ${out}\nstderr: ${err}`);
  }
  const m = printed();
  if (!m) throw new Error(`mockdev ui exited before printing its URL\nstdout: ${out}\nstderr: ${err}`);
  return { child, url: m[1]!, port: Number(m[2]), stdout: () => out, stderr: () => err, exited, stop };
}

export interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json: unknown;
}

/**
 * One HTTP request with exactly the headers given (node:http, so Host and Origin can be set as
 * a browser on another site would send them). A JSON body is sent as application/json unless
 * `content-type` is given.
 */
export function http(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown; timeoutMs?: number } = {},
): Promise<HttpResult> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type'))
      headers['Content-Type'] = 'application/json';
  }
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => {
        let json: unknown;
        try {
          json = text === '' ? undefined : (JSON.parse(text) as unknown);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, json });
      });
      res.on('error', reject);
    });
    req.setTimeout(options.timeoutMs ?? 10_000, () => req.destroy(new Error(`${url} timed out`)));
    req.on('error', reject);
    req.end(body);
  });
}
