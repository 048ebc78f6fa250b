import { createContext, type AppContext } from '../../src/app/context.js';
import { addEndpoint } from '../../src/app/endpoints.js';
import { createProject } from '../../src/app/projects.js';
import { addVariation } from '../../src/app/variations.js';
import type { Project } from '../../src/core/model/project.js';
import { tempDir } from './cli.js';

/** The app's context over a temp data directory, closed and removed after the test. */
export function tempContext(t: { after(fn: () => void): void }, prefix = 'mockdev-test-'): AppContext {
  const { dir, cleanup } = tempDir(prefix);
  const ctx = createContext({ dataDir: dir, cwd: dir });
  t.after(() => {
    ctx.close();
    cleanup();
  });
  return ctx;
}

/**
 * A project whose `POST /users` reads the body as JSON both ways: its template renders
 * `body.name` (201), and its variation "ada" (200, the name rendered too) has the rule
 * `body.name=Ada Lovelace`.
 */
export async function bodyReadingProject(ctx: AppContext, name: string): Promise<Project> {
  const project = await createProject(ctx, { name });
  await addEndpoint(ctx, name, {
    method: 'POST',
    path: '/users',
    status: 201,
    body: '{"name":"{{body.name}}"}',
  });
  await addVariation(ctx, name, 'POST /users', {
    name: 'ada',
    status: 200,
    body: '{"rule":"matched","name":"{{body.name}}"}',
    rules: ['body.name=Ada Lovelace'],
  });
  return project;
}
