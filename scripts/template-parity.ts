/**
 * Writes the parity table of docs/templates.md ("Parity with Mockoon and WireMock") from
 * src/core/templates/parity-data.ts, between its marker comments:
 *   node --import tsx scripts/template-parity.ts          (rewrite the section)
 *   node --import tsx scripts/template-parity.ts --check  (exit 1 when the doc is stale)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { withParity } from '../src/core/templates/parity.js';

const file = fileURLToPath(new URL('../docs/templates.md', import.meta.url));
const doc = readFileSync(file, 'utf8');
const next = withParity(doc);
if (next === undefined) {
  console.error(
    'docs/templates.md has no parity markers: add the section "Parity with Mockoon and WireMock" with them',
  );
  process.exit(1);
}
if (process.argv.includes('--check')) {
  if (next !== doc) {
    console.error(
      'docs/templates.md parity table is stale: run node --import tsx scripts/template-parity.ts',
    );
    process.exit(1);
  }
} else if (next !== doc) writeFileSync(file, next);
