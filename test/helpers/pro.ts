import assert from 'node:assert/strict';
import { cliSandbox, type AfterHook, type CliSandbox } from './cli-inprocess.js';
import { testSigner } from './license.js';

const signer = testSigner();

/**
 * The environment of a CLI run that trusts this test's license signing key (and no license
 * service from the machine's environment).
 */
export const PRO_ENV = { MOCKDEV_LICENSE_PUBLIC_KEY: signer.publicKeyPem, MOCKDEV_LICENSE_URL: undefined };

/** A sandbox whose runs get PRO_ENV; with `activate` (the default) a Pro key is activated first. */
export async function proSandbox(
  t: AfterHook,
  options: { activate?: boolean } = {},
): Promise<CliSandbox & { key: string }> {
  const box = cliSandbox(t);
  const key = signer.key({ sub: 'pro@example.com' });
  const sandbox: CliSandbox & { key: string } = {
    ...box,
    key,
    cli: (args, extra = {}) => box.cli(args, { ...extra, env: { ...PRO_ENV, ...extra.env } }),
    spawn: (args, extra = {}) => box.spawn(args, { ...extra, env: { ...PRO_ENV, ...extra.env } }),
  };
  if (options.activate ?? true) {
    const r = await sandbox.cli(['license', 'activate', key]);
    assert.equal(r.code, 0, r.stderr);
  }
  return sandbox;
}

/**
 * A mock server of `project` run in this process over the sandbox's data directory, trusting
 * the test's license key (so the active environment is read); stopped after the test.
 */
export async function startProServer(sandbox: CliSandbox, project: string) {
  const { createContext } = await import('../../src/app/context.js');
  const { startServer } = await import('../../src/app/server.js');
  const ctx = createContext({
    dataDir: sandbox.dataDir,
    cwd: sandbox.dir,
    env: { MOCKDEV_LICENSE_PUBLIC_KEY: PRO_ENV.MOCKDEV_LICENSE_PUBLIC_KEY },
  });
  const server = await startServer(ctx, { project, port: 0 });
  sandbox.defer(async () => {
    await server.stop();
    ctx.close();
  });
  return { ctx, server };
}
