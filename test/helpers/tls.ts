import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A program a test needs (openssl, curl), found on PATH; missing, the test fails naming the
 * Debian package that brings it (never skips).
 */
export function requireTool(name: string, debianPackage: string): string {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  assert.ok(
    found.status === 0 && found.stdout.trim(),
    `${name} is missing: install the Debian package "${debianPackage}" (apt-get install ${debianPackage})`,
  );
  return found.stdout.trim();
}

/** Runs a program (no shell), bounded; resolves with its exit code and output. */
export function run(
  file: string,
  args: string[],
  timeoutMs = 20_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { timeout: timeoutMs, killSignal: 'SIGKILL', encoding: 'utf8' },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

/** The four files `tls generate` makes in `<data>/tls`. */
export const tlsFiles = (dataDir: string) => {
  const dir = join(dataDir, 'tls');
  return {
    dir,
    ca: join(dir, 'ca.pem'),
    caKey: join(dir, 'ca-key.pem'),
    cert: join(dir, 'cert.pem'),
    key: join(dir, 'key.pem'),
  };
};

export const certOf = (file: string) => new X509Certificate(readFileSync(file));
