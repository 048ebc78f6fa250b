import { post } from '../api/client';
import { useNotify } from '../components/notices';
import { TableHead } from '../components/table-head';
import { ProjectForm, type ProjectFields } from '../projects/project-form';
import { ProjectRow } from '../projects/project-row';
import { UnreadableProjects } from '../projects/unreadable-projects';
import '../projects/projects.css';
import '../requests/shared.css';
import { useShared } from '../state';
import type { ProjectDetail } from '../types';

/**
 * The projects: a table (name linking to its endpoints, port, endpoint count, description,
 * folder, the mock server's status and URL), the projects whose files cannot be read (with
 * the file and the problem), a form for a new one, Edit in place, Delete with
 * what goes listed, Start and Stop per row. Live: `projects`, `endpoints` and `server` events
 * (state.tsx) reload the lists, so what the CLI does shows without a reload.
 */
export function ProjectsScreen() {
  const { projects, unreadableProjects, reloadProjects } = useShared();
  const notify = useNotify();

  const create = async (fields: ProjectFields) => {
    try {
      const p = await post<ProjectDetail>('/projects', fields);
      notify.info(`Created ${p.name}`, `On port ${p.port}.`);
      reloadProjects();
      return true;
    } catch (e) {
      notify.error(e, 'Could not create the project');
      return false;
    }
  };

  return (
    <section className="screen projects-screen" aria-labelledby="screen-title">
      <h1 id="screen-title">Projects</h1>
      {!projects ? (
        <p className="loading">Loading…</p>
      ) : projects.length === 0 && unreadableProjects.length === 0 ? (
        <div className="empty-state">
          <p>
            <strong>No projects yet.</strong> A project is a set of mock endpoints served on its own port.
          </p>
          <p>
            Create one with the form below, or from a terminal:{' '}
            <code>mockdev project create "My API" -p 4000</code> (it shows up here at once).
          </p>
        </div>
      ) : projects.length === 0 ? null : (
        <table className="projects-table">
          <caption className="visually-hidden">Projects</caption>
          <TableHead
            columns={['Name', 'Port', 'Endpoints', 'Description', 'Folder', 'Mock server']}
            hidden="Actions"
          />
          <tbody>
            {projects.map((p) => (
              <ProjectRow key={p.id} project={p} />
            ))}
          </tbody>
        </table>
      )}
      <UnreadableProjects projects={unreadableProjects} />
      <h2>New project</h2>
      <ProjectForm idPrefix="new-project" submitLabel="Create project" onSubmit={create} portOptional />
    </section>
  );
}
