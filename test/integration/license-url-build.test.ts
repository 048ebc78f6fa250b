/**
 * The default MOCKDEV_LICENSE_URL is a constant of the build: scripts/build.mjs defines it from
 * MOCKDEV_DEFAULT_LICENSE_URL (scripts/build-defines.mjs), else the vendor's service. Bundles
 * src/core/license-defaults.ts the way the build does and reads the constant back.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { VENDOR_LICENSE_URL } from '../../src/core/license-defaults.js';
import { ROOT } from '../helpers/cli.js';

const SCRIPT = `
import { build } from 'esbuild';
import { buildDefines } from './scripts/build-defines.mjs';
const out = await build({
  entryPoints: ['src/core/license-defaults.ts'], bundle: true, write: false, format: 'esm',
  platform: 'node', define: buildDefines(process.env), logLevel: 'silent',
});
const url = 'data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64');
console.log((await import(url)).DEFAULT_LICENSE_URL);
`;

const defaultUrl = (value: string | undefined) =>
  execFileSync(process.execPath, ['--input-type=module', '-e', SCRIPT], {
    cwd: ROOT,
    env: { ...process.env, MOCKDEV_DEFAULT_LICENSE_URL: value },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();

describe('the default license service URL, set at build time', () => {
  it('is the vendor’s unless MOCKDEV_DEFAULT_LICENSE_URL names another', () => {
    assert.equal(defaultUrl(undefined), VENDOR_LICENSE_URL);
    assert.equal(defaultUrl(''), VENDOR_LICENSE_URL);
    assert.equal(defaultUrl('https://licenses.example.org/'), 'https://licenses.example.org');
    assert.throws(
      () => defaultUrl('licenses.example.org'),
      /MOCKDEV_DEFAULT_LICENSE_URL must be an http\(s\) URL/,
    );
  });
});
