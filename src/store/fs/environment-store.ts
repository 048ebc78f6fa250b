import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { MockdevError } from '../../core/errors.js';
import {
  EnvironmentSchema,
  type ActiveEnvironments,
  type Environment,
} from '../../core/model/environment.js';
import type { EnvironmentStore } from '../../core/ports.js';
import { dataPaths } from './data-dir.js';
import {
  checkShape,
  formatJson,
  ioError,
  readFolderNames,
  readJsonFile,
  writeFileAtomic,
  writeJsonAtomic,
} from './json-file.js';
import { withLock } from './lock.js';
import { PRIVATE_DIR } from './private.js';

const ActiveFileSchema = z.object({
  projects: z.record(
    z.string(),
    z.object({ project: z.string().nullable().default(null), global: z.string().nullable().default(null) }),
  ),
});
type ActiveFile = z.infer<typeof ActiveFileSchema>;

const SecretsSchema = z.record(z.string(), z.string());

/** The file of what each project has active: `active.json`, beside the environments. */
const ACTIVE = 'active';
const NONE: ActiveEnvironments = { project: null, global: null };
const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Environments in `<data>/environments/`: `<id>.json` holds the name, scope, plain variables and
 * the secrets' keys; `<id>.secrets.json` (0600, written only when there are secrets) their values;
 * `active.json` what each project has active. Writes hold `.lock` in that folder. Errors about the
 * secrets file never quote its text.
 */
export class FileEnvironmentStore implements EnvironmentStore {
  readonly dir: string;
  private readonly activeFile: string;
  constructor(dataDir: string) {
    this.dir = dataPaths(dataDir).environments;
    this.activeFile = join(this.dir, `${ACTIVE}.json`);
  }

  private file = (id: string) => join(this.dir, `${id}.json`);
  private secretsFile = (id: string) => join(this.dir, `${id}.secrets.json`);

  async list(query: { projectIds?: string[] } = {}): Promise<Environment[]> {
    const names = (await readFolderNames(this.dir)).filter(
      (n) =>
        n.endsWith('.json') && !n.endsWith('.secrets.json') && n !== `${ACTIVE}.json` && !n.startsWith('.'),
    );
    const all: Environment[] = [];
    for (const name of names) {
      const env = await this.get(name.slice(0, -'.json'.length));
      if (env) all.push(env);
    }
    const wanted = query.projectIds;
    return all
      .filter((e) => !wanted || e.projectId === null || wanted.includes(e.projectId))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  async get(id: string): Promise<Environment | undefined> {
    // An id is a file name here: never that of active.json, in any case (a file system may
    // ignore case); an environment named "active" is then found by its name.
    if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(id) || id.toLowerCase() === ACTIVE) return undefined;
    const raw = await readJsonFile(this.file(id));
    if (raw === undefined) return undefined;
    const plain = checkShape(this.file(id), EnvironmentSchema, raw);
    const secrets = plain.secretKeys.length ? await this.readSecrets(id) : {};
    const variables = { ...plain.variables };
    // A secret whose value is missing (the files were being rewritten) reads as empty.
    for (const key of plain.secretKeys) variables[key] = secrets[key] ?? '';
    return { ...plain, variables };
  }

  async create(environment: Environment): Promise<Environment> {
    const env = EnvironmentSchema.parse(environment);
    return this.locked(async () => {
      if (await this.get(env.id))
        throw new MockdevError('CONFLICT', `An environment with id "${env.id}" already exists`);
      await this.checkName(env);
      await this.write(env);
      return env;
    });
  }

  async update(id: string, change: (current: Environment) => Environment): Promise<Environment> {
    return this.locked(async () => {
      const current = await this.get(id);
      if (!current) throw notFound(id);
      const next = EnvironmentSchema.parse({
        ...change(current),
        id: current.id,
        projectId: current.projectId,
      });
      if (next.name !== current.name) await this.checkName(next);
      await this.write(next);
      return next;
    });
  }

  async remove(id: string): Promise<boolean> {
    return this.locked(async () => {
      if (!(await this.get(id))) return false;
      await this.unlink(id);
      const active = await this.readActive();
      for (const [pid, a] of Object.entries(active.projects)) {
        if (a.project === id) a.project = null;
        if (a.global === id) a.global = null;
        if (!a.project && !a.global) delete active.projects[pid];
      }
      await writeJsonAtomic(this.activeFile, active);
      return true;
    });
  }

  async removeProject(projectId: string): Promise<number> {
    return this.locked(async () => {
      const own = (await this.list()).filter((e) => e.projectId === projectId);
      for (const env of own) await this.unlink(env.id);
      const active = await this.readActive();
      if (active.projects[projectId]) {
        delete active.projects[projectId];
        await writeJsonAtomic(this.activeFile, active);
      }
      return own.length;
    });
  }

  async getActive(projectId: string): Promise<ActiveEnvironments> {
    return { ...((await this.readActive()).projects[projectId] ?? NONE) };
  }

  async setActive(projectId: string, next: ActiveEnvironments): Promise<void> {
    await this.locked(async () => {
      for (const id of [next.project, next.global]) if (id && !(await this.get(id))) throw notFound(id);
      const active = await this.readActive();
      if (next.project || next.global)
        active.projects[projectId] = { project: next.project, global: next.global };
      else delete active.projects[projectId];
      await writeJsonAtomic(this.activeFile, active);
    });
  }

  // ---------------------------------------------------------------- internals

  private async locked<T>(fn: () => Promise<T>): Promise<T> {
    try {
      await fs.mkdir(this.dir, { recursive: true, mode: PRIVATE_DIR });
    } catch (e) {
      throw ioError(`Could not create ${this.dir}`, e);
    }
    return withLock(join(this.dir, '.lock'), fn);
  }

  private async checkName(env: Environment): Promise<void> {
    const clash = (await this.list()).find(
      (e) => e.id !== env.id && e.projectId === env.projectId && sameName(e.name, env.name),
    );
    if (clash) {
      throw new MockdevError(
        'NAME_TAKEN',
        `${env.projectId ? 'This project' : 'The global scope'} already has an environment named "${clash.name}" (id ${clash.id})`,
        { hint: 'Choose another name', details: { name: env.name, id: clash.id } },
      );
    }
  }

  private async write(env: Environment): Promise<void> {
    const secret = new Set(env.secretKeys);
    const plain: Record<string, string> = {};
    const secrets: Record<string, string> = {};
    for (const [k, v] of Object.entries(env.variables)) (secret.has(k) ? secrets : plain)[k] = v;
    // The secrets first: a reader between the two writes finds every secret it is told of.
    if (env.secretKeys.length) await writeFileAtomic(this.secretsFile(env.id), formatJson(secrets), 0o600);
    await writeJsonAtomic(this.file(env.id), { ...env, variables: plain });
    if (!env.secretKeys.length) await fs.rm(this.secretsFile(env.id), { force: true });
  }

  private async unlink(id: string): Promise<void> {
    try {
      await fs.rm(this.file(id), { force: true });
      await fs.rm(this.secretsFile(id), { force: true });
    } catch (e) {
      throw ioError(`Could not delete environment ${id}`, e);
    }
  }

  private async readSecrets(id: string): Promise<Record<string, string>> {
    const file = this.secretsFile(id);
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw ioError(`Could not read ${file}`, e);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const parsed = SecretsSchema.safeParse(json);
    if (!parsed.success) {
      // Never quotes the file: it holds secrets.
      throw new MockdevError('CORRUPT_FILE', `${file} does not hold an object of secret values (strings)`, {
        hint: 'Fix the file by hand, or set the secrets again with "mockdev environment update <ID> --secret KEY=VALUE"',
        details: { file },
      });
    }
    return parsed.data;
  }

  private async readActive(): Promise<ActiveFile> {
    const raw = await readJsonFile(this.activeFile);
    return checkShape(this.activeFile, ActiveFileSchema, raw ?? { projects: {} });
  }
}

const notFound = (id: string) =>
  new MockdevError('NOT_FOUND', `Environment "${id}" not found`, { details: { environment: id } });
