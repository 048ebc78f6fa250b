import {
  deleteProject,
  getProject,
  initProject,
  listProjects,
  resolveProject,
  createProject,
  updateProject,
} from '../../app/projects.js';
import type { Project, ProjectDetail } from '../../core/model/project.js';
import { isReadable, isUnreadable } from '../../core/model/project-listing.js';
import { toInt } from '../args.js';
import type { InitOptions } from '../commands/init.js';
import type { ProjectOptions } from '../commands/project.js';
import { confirmDestructive } from '../confirm.js';
import { cellText, note, printFields, printJson, printLine, printTable } from '../output.js';
import { cliContext } from './context.js';
import { printEndpointTable } from './endpoint.js';

const printProjectSummary = (p: (Project | ProjectDetail) & { dir?: string }) =>
  printFields([
    ['id', p.id],
    ['name', p.name],
    ['description', cellText(p.description, 200)],
    ...(p.apiVersion !== undefined ? [['api version', p.apiVersion] as [string, unknown]] : []),
    ...(p.dir !== undefined ? [['folder', p.dir] as [string, unknown]] : []),
    ['port', p.port],
    ['https', p.tls ? 'yes (mockdev serve uses the generated certificate)' : 'no'],
    ['endpoints', p.endpointCount],
    ['created', p.createdAt],
    ['updated', p.updatedAt],
  ]);

/**
 * `list` and `project list`: the data directory's projects, and the project folders it knows; a
 * project that cannot be read is listed after the table, with its file and the problem.
 */
export async function list(opts: ProjectOptions): Promise<void> {
  const listed = await listProjects(cliContext());
  if (opts.json) return printJson(listed);
  const projects = listed.filter(isReadable);
  const unreadable = listed.filter(isUnreadable);
  const folders = projects.some((p) => p.dir !== undefined);
  if (projects.length > 0 || unreadable.length === 0)
    printTable(
      projects,
      [
        { header: 'ID', value: (p) => p.id },
        { header: 'NAME', value: (p) => p.name },
        { header: 'PORT', value: (p) => p.port, align: 'right' },
        { header: 'ENDPOINTS', value: (p) => p.endpointCount, align: 'right' },
        { header: 'DESCRIPTION', value: (p) => p.description, max: 60 },
        // Only when some project lives in a folder of its own: the others are in the data directory.
        ...(folders
          ? [{ header: 'FOLDER', value: (p: Project & { dir?: string }) => p.dir ?? '(data directory)' }]
          : []),
      ],
      'No projects yet. Create one with: mockdev project create <NAME>',
    );
  if (unreadable.length === 0) return;
  if (projects.length > 0) printLine();
  printLine(`${unreadable.length} project${unreadable.length === 1 ? '' : 's'} cannot be read (UNREADABLE):`);
  for (const u of unreadable) {
    const known = u.id !== undefined ? ` ${u.name ?? ''} (id ${u.id})` : '';
    printLine(`- UNREADABLE${known}: ${u.unreadable.file}`);
    printLine(`  ${u.unreadable.problem}`);
  }
}

export async function create(name: string, opts: ProjectOptions): Promise<void> {
  const project = await createProject(cliContext(), {
    name,
    port: toInt(opts.port, '--port'),
    description: opts.description,
  });
  if (opts.json) return printJson(project);
  printLine(`Created project "${project.name}" (id ${project.id}, port ${project.port})`);
}

export async function show(ref: string, opts: ProjectOptions): Promise<void> {
  const project = await getProject(cliContext(), ref);
  if (opts.json) return printJson(project);
  printProjectSummary(project);
  printLine();
  printEndpointTable(project.endpoints);
}

export async function update(ref: string, opts: ProjectOptions): Promise<void> {
  const patch = {
    ...(opts.newName !== undefined ? { name: opts.newName } : {}),
    ...(opts.port !== undefined ? { port: toInt(opts.port, '--port') } : {}),
    ...(opts.description !== undefined ? { description: opts.description } : {}),
    ...(opts.tls !== undefined ? { tls: opts.tls } : {}),
  };
  const project = await updateProject(cliContext(), ref, patch);
  if (opts.json) return printJson(project);
  printLine(
    `Updated project "${project.name}" (id ${project.id}, port ${project.port}${project.tls ? ', HTTPS' : ''})`,
  );
}

export async function remove(ref: string, opts: ProjectOptions): Promise<void> {
  const ctx = cliContext();
  const target = await resolveProject(ctx, ref);
  const ok = await confirmDestructive(
    `Delete project "${target.project.name}", its ${target.endpoints.length} endpoint(s) and its request log?`,
    opts.force,
  );
  if (!ok) return note('Cancelled; nothing was deleted.');
  const { project, requestsDeleted } = await deleteProject(ctx, target.location);
  if (opts.json) return printJson(project);
  const log = requestsDeleted ? ` and its ${requestsDeleted} logged request(s)` : '';
  printLine(`Deleted project "${project.name}" (id ${project.id})${log}`);
}

export async function init(path: string, opts: InitOptions): Promise<void> {
  const project = await initProject(cliContext(), {
    path,
    name: opts.name,
    port: toInt(opts.port, '--port'),
    withExamples: opts.withExamples,
    force: opts.force,
  });
  if (opts.json) return printJson(project);
  printLine(
    `Created project "${project.name}" in ${project.dir} (port ${project.port}, ${project.endpointCount} endpoint(s))`,
  );
  if (project.endpoints.length) printEndpointTable(project.endpoints);
}
