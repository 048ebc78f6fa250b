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
    ];
    for (const [file, code] of cases) assert.deepEqual(await layerErrors(file, code), [], `${file}`);
  });
});
