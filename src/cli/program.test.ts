import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Command } from 'commander';
import { buildProgram } from './program.js';

const names = (command?: string) => buildProgram(command).commands.map((c) => c.name());
const tree = (c: Command): unknown => ({
  name: c.name(),
  options: c.options.map((o) => o.flags),
  args: c.registeredArguments.map((a) => a.name()),
  commands: c.commands.map(tree),
});

describe('buildProgram', () => {
  it('builds the command a run names alone, the same as in the whole program', () => {
    const all = buildProgram().commands;
    assert.ok(all.length > 10);
    for (const full of all) {
      if (full.name() === 'completion') continue;
      const program = buildProgram(full.name());
      assert.deepEqual(
        program.commands.map((c) => c.name()),
        [full.name()],
      );
      assert.deepEqual(tree(program.commands[0]!), tree(full));
    }
  });

  it('builds every command for completion, help, options and unknown words', () => {
    const all = names();
    for (const first of ['completion', 'help', '--help', '-V', 'serv', 'nope'])
      assert.deepEqual(names(first), all);
  });
});
