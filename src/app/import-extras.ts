import { MockdevError } from '../core/errors.js';
import type { ImportReport } from './openapi.js';
import type { Project } from '../core/model/project.js';
import { ResourceInputSchema } from '../core/model/resource.js';
import { uniqueName } from '../core/naming.js';
import { parseInput } from '../core/validate.js';
import type { ConvertedImport, ImportNote } from '../formats/converted.js';
import type { AppContext } from './context.js';
import { checkVariableKey, createEnvironment } from './environments.js';
import { DRY_RUN_ID } from './import-write.js';
import { createProject, nextFreeProjectPort } from './projects.js';
import { addResource } from './resources.js';

/**
 * What an import of another tool's file makes beside the endpoints: resources (Mockoon's data
 * buckets and CRUD routes, by addResource's rules), the variables it reports (secret-looking
 * ones masked) and, with `env`, an environment of the project holding them.
 */

type Skip = ImportReport['skipped'][number];

/** Names that say a value is a secret: masked in the report, secrets in the environment. */
const SECRET_NAME = /secret|token|passw|pwd|api[-_]?key|auth|credential|private|session|cookie/i;
const MASK = '********';

export interface ImportExtras {
  approximate: ImportNote[];
  variables: NonNullable<ImportReport['variables']>;
  /** A new project without endpoints (an import of resources only). */
  emptyProject(name: string, description: string, port: number | undefined): Promise<Project>;
  /** Makes the resources and the environment in the project (undefined: a dry run's new project). */
  finish(projectId: string | undefined): Promise<{
    resources: NonNullable<ImportReport['resources']>;
    environment?: ImportReport['environment'];
    skipped: Skip[];
  }>;
}

export async function importExtras(
  ctx: AppContext,
  converted: ConvertedImport,
  options: { dryRun: boolean; env: boolean },
): Promise<ImportExtras> {
  const approximate: ImportNote[] = [];
  const variables = converted.variables.map((v) => {
    const secret = SECRET_NAME.test(v.name);
    return { name: v.name, value: secret ? MASK : v.value, secret };
  });
  return {
    approximate,
    variables,
    emptyProject: async (name, description, port) => {
      const unique = uniqueName(
        name,
        (await ctx.projects.summaries({ managedOnly: true })).map((p) => p.name),
      );
      if (options.dryRun) {
        const now = new Date().toISOString();
        const chosen = port ?? (await nextFreeProjectPort(ctx));
        return {
          id: DRY_RUN_ID,
          name: unique,
          description,
          port: chosen,
          createdAt: now,
          updatedAt: now,
          endpointCount: 0,
        };
      }
      const { endpoints: _none, ...project } = await createProject(ctx, {
        name: unique,
        description: description.slice(0, 2000),
        port,
      });
      return project;
    },
    finish: async (projectId) => {
      const skipped: Skip[] = [];
      const resources: NonNullable<ImportReport['resources']> = [];
      for (const r of converted.resources) {
        try {
          if (options.dryRun || projectId === undefined) {
            const parsed = parseInput(ResourceInputSchema, r, 'resource');
            resources.push({
              name: parsed.name ?? parsed.path,
              path: parsed.path,
              itemCount: parsed.seed.length,
            });
          } else {
            const made = await addResource(ctx, projectId, r);
            resources.push({ id: made.id, name: made.name, path: made.path, itemCount: made.itemCount });
          }
        } catch (e) {
          if (!(e instanceof MockdevError)) throw e;
          skipped.push({
            method: '',
            path: r.path,
            reason: `resource not made: ${e.message}`,
            ...(r.name ? { name: r.name } : {}),
          });
        }
      }
      const environment = options.env
        ? await makeEnvironment(ctx, converted, projectId, options.dryRun, skipped)
        : undefined;
      return { resources, skipped, ...(environment ? { environment } : {}) };
    },
  };
}

async function makeEnvironment(
  ctx: AppContext,
  converted: ConvertedImport,
  projectId: string | undefined,
  dryRun: boolean,
  skipped: Skip[],
): Promise<ImportReport['environment']> {
  if (converted.variables.length === 0) return undefined;
  const values: Record<string, string> = {};
  for (const v of converted.variables) {
    try {
      checkVariableKey(v.name);
      values[v.name] = v.value;
    } catch (e) {
      if (!(e instanceof MockdevError)) throw e;
      skipped.push({
        method: '',
        path: '',
        name: v.name,
        reason: `variable not put in the environment: ${e.message}`,
      });
    }
  }
  const secretKeys = Object.keys(values).filter((k) => SECRET_NAME.test(k));
  const name = (converted.title ?? 'Imported').slice(0, 60) || 'Imported';
  const variableCount = Object.keys(values).length;
  if (dryRun || projectId === undefined) return { name, variableCount };
  const made = await createEnvironment(ctx, { name, project: projectId, variables: values, secretKeys });
  return { id: made.id, name: made.name, variableCount };
}
