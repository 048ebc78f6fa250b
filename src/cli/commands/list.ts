import type { Command } from 'commander';
import { MockdevError } from '../../core/errors.js';
import { examples } from '../help.js';

export function registerList(program: Command): void {
  program
    .command('list')
    .description('list projects, or the endpoints of a project')
    .argument('[RESOURCE]', '"projects" (default) or "endpoints"', 'projects')
    .argument(
      '[PROJECT_ID]',
      'project id, name or folder (for "endpoints"; default: the project in the current folder)',
    )
    .option('--json', 'print JSON instead of a table')
    .option('--enabled-only', 'only enabled endpoints (for "endpoints")')
    .addHelpText(
      'after',
      examples(
        'mockdev list',
        'mockdev list projects --json',
        'mockdev list endpoints my-api --enabled-only',
        'mockdev list endpoints        # in a folder holding project.json',
      ),
    )
    .action(
      async (
        resource: string,
        projectRef: string | undefined,
        opts: { json?: boolean; enabledOnly?: boolean },
      ) => {
        if (resource === 'projects') {
          if (projectRef)
            throw new MockdevError(
              'INVALID_ARGUMENT',
              `"list projects" takes no project argument (got "${projectRef}")`,
            );
          return (await import('../handlers/project.js')).list(opts);
        }
        if (resource === 'endpoints') {
          // No project: the one in the current folder, as `serve` does.
          return (await import('../handlers/endpoint.js')).list(projectRef, opts, 'list endpoints');
        }
        throw new MockdevError(
          'INVALID_ARGUMENT',
          `Unknown resource "${resource}": use "projects" or "endpoints"`,
          {
            hint: 'Example: mockdev list endpoints my-api',
          },
        );
      },
    );
}
