import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * HTTPS test tools: a certificate made with the real `openssl`, requests made with the real
 * `curl`. A missing tool fails the test naming the Debian package that has it (never a skip).
 */

const run = promisify(execFile);

/** Fails, naming its Debian package, when `tool` cannot be run. */
export function requireTool(tool: 'curl' | 'openssl'): void {
  const probe = spawnSync(tool, [tool === 'curl' ? '--version' : 'version'], { stdio: 'ignore' });
  if (probe.error || probe.status !== 0)
    throw new Error(
      `${tool} is needed by this test: install the Debian package "${tool}" (apt-get install ${tool})`,
    );
}

export interface TestCertificate {
  certFile: string;
  keyFile: string;
  cert: string;
  key: string;
}

/**
 * A self-signed certificate for localhost, 127.0.0.1 and ::1 (its own CA: `curl --cacert
 * certFile` accepts it), made by openssl in `dir`.
 */
export async function makeCertificate(dir: string, name = 'own'): Promise<TestCertificate> {
  requireTool('openssl');
  const certFile = join(dir, `${name}-cert.pem`);
  const keyFile = join(dir, `${name}-key.pem`);
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    keyFile,
    '-out',
    certFile,
    '-days',
    '2',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
  ]);
  return { certFile, keyFile, cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
}

export interface CurlResult {
  status: number;
  /** "1.1" or "2" */
  httpVersion: string;
  /** Response header lines, as received (status line first). */
  head: string;
  body: string;
}

/** `curl --cacert <ca>` of a URL; `http2` asks for HTTP/2 (ALPN), else HTTP/1.1. */
export async function curl(
  url: string,
  options: { ca: string; http2?: boolean; headers?: string[]; method?: string; data?: string },
): Promise<CurlResult> {
  requireTool('curl');
  const args = ['-sS', '--max-time', '20', '--cacert', options.ca, options.http2 ? '--http2' : '--http1.1'];
  for (const h of options.headers ?? []) args.push('-H', h);
  if (options.method) args.push('-X', options.method);
  if (options.data !== undefined) args.push('--data-binary', options.data);
  args.push('-i', '-w', '\n%{http_code} %{http_version}', url);
  const { stdout } = await run('curl', args, { encoding: 'utf8' });
  const cut = stdout.lastIndexOf('\n');
  const [status, httpVersion] = stdout.slice(cut + 1).split(' ');
  const whole = stdout.slice(0, cut);
  const split = whole.indexOf('\r\n\r\n');
  return {
    status: Number(status),
    httpVersion: httpVersion!,
    head: whole.slice(0, split),
    body: whole.slice(split + 4),
  };
}
