/**
 * The lint configuration enforces the layer directions of docs/architecture.md: a wrong-way
 * import fails `npm test`.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';

const root = fileURLToPath(new URL('..', import.meta.url));
const eslint = new ESLint({ cwd: root });
const layerErrors = async (file: string, code: string) =>
  (await eslint.lintText(code, { filePath: file }))[0]!.messages.filter((m) => m.ruleId === 'mockdev/layers');

describe('layer rule', () => {
  it('refuses wrong-way imports, naming both layers', async () => {
    const cases: [string, string][] = [
      ['src/runtime/x.ts', "import { openLocalStores } from '../store/local.js';\nvoid openLocalStores;\n"],
      ['src/store/fs/x.ts', "import { startServer } from '../../app/server.js';\nvoid startServer;\n"],
      ['src/core/x.ts', "export { listen } from '../http/listen.js';\n"],
      [
        'src/http/x.ts',
        "import { createMockHandler } from '../runtime/handler.js';\nvoid createMockHandler;\n",
      ],
      ['src/app/x.ts', "export const load = () => import('../cli/program.js');\n"],
      [
        'src/mcp/x.ts',
        "import { FolderProjectStore } from '../store/fs/project-store.js';\nvoid FolderProjectStore;\n",
      ],
      [
        'src/cli/handlers/x.ts',
        "import type { RequestDatabase } from '../../store/request-log/database.js';\nexport type X = RequestDatabase;\n",
      ],
      // The license service stands apart: on the core only, and nothing imports it.
      [
        'src/license-service/x.ts',
        "import { licenseStatus } from '../app/license.js';\nvoid licenseStatus;\n",
      ],
      ['src/cli/x.ts', "import { LicenseDesk } from '../license-service/desk.js';\nvoid LicenseDesk;\n"],
    ];
    for (const [file, code] of cases) {
      const errors = await layerErrors(file, code);
      assert.equal(errors.length, 1, `${file}: ${code}`);
      assert.match(errors[0]!.message, /may not import .* sits (below|beside)/);
    }
  });

  it('lets imports point the right way', async () => {
    const cases: [string, string][] = [
      ['src/app/x.ts', "import { listen } from '../http/listen.js';\nvoid listen;\n"],
      ['src/runtime/x.ts', "import { readBody } from '../http/body.js';\nvoid readBody;\n"],
      ['src/store/fs/x.ts', "import { MockdevError } from '../../core/errors.js';\nvoid MockdevError;\n"],
      ['src/cli/handlers/x.ts', "import { startServer } from '../../app/server.js';\nvoid startServer;\n"],
      ['src/mcp/x.ts', "import { listen } from '../http/listen.js';\nvoid listen;\n"],
      ['src/api/x.ts', "import { createGuard } from '../http/guard.js';\nvoid createGuard;\n"],
      [
        'src/license-service/x.ts',
        "import { signLicenseKey } from '../core/license.js';\nvoid signLicenseKey;\n",
      ],
    ];
    for (const [file, code] of cases) assert.deepEqual(await layerErrors(file, code), [], `${file}`);
  });
});

const messagesOf = async (file: string, code: string) =>
  (await eslint.lintText(code, { filePath: file }))[0]!.messages.map((m) => `${m.ruleId}: ${m.message}`);

describe('the web UI and the core field limits', () => {
  it('refuses a limit the UI restates, naming the constant of src/core/model/limits to import', async () => {
    const cases: [string, RegExp][] = [
      ['export const ok = (n: number) => n >= 200 && n <= 599;\n', /import STATUS_MAX/],
      ['export const MAX = 600_000;\n', /import DELAY_MAX_MS/],
      ["export const M = ['GET', 'POST', 'OPTIONS'];\n", /import HTTP_METHODS/],
      ['export const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;\n', /import ENV_KEY_PATTERN/],
    ];
    for (const [code, pattern] of cases) {
      const messages = await messagesOf('ui/src/editor/x.ts', code);
      assert.ok(
        messages.some((m) => pattern.test(m)),
        `${code} -> ${messages.join('; ')}`,
      );
    }
  });

  it('lets the UI import values from src/core/model/limits and only types from the rest of the model', async () => {
    const limits =
      "import { STATUS_MAX } from '../../../src/core/model/limits';\nexport const max = STATUS_MAX;\n";
    assert.deepEqual(await messagesOf('ui/src/editor/x.ts', limits), []);
    const schema =
      "import { EndpointSchema } from '../../../src/core/model/endpoint';\nexport const s = EndpointSchema;\n";
    assert.ok((await messagesOf('ui/src/editor/x.ts', schema)).some((m) => /Only types come from/.test(m)));
  });
});

describe('network I/O in the use cases', () => {
  it('refuses fetch in src/app: the network is reached through a port', async () => {
    const messages = await messagesOf('src/app/x.ts', "export const get = () => fetch('http://x');\n");
    assert.ok(
      messages.some((m) => /behind a port/.test(m)),
      messages.join('; '),
    );
  });
});
