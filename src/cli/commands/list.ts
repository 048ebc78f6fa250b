import type { Command } from 'commander';
import { MockdevError } from '../../core/errors.js';
import { examples } from '../help.js';

export function registerList(program: Command): void {
  program
    .command('list')
    .description('list projects, or the endpoints of a project')
    .argument('[RESOURCE]', '"projects" (default) or "endpoints"', 'projects')
    .argument('[PROJECT_ID]', 'project id, name or folder (for "endpoints")')
    .option('--json', 'print JSON instead of a table')
    .option('--enabled-only', 'only enabled endpoints (for "endpoints")')
    .addHelpText(
      'after',
      examples(
        'mockdev list',
        'mockdev list projects --json',
        'mockdev list endpoints my-api --enabled-only',
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
          if (!projectRef) {
            throw new MockdevError('INVALID_ARGUMENT', '"list endpoints" needs a project', {
              hint: 'Example: mockdev list endpoints my-api',
            });
          }
          return (await import('../handlers/endpoint.js')).list(projectRef, opts);
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
