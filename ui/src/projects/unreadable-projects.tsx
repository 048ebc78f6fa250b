import type { UnreadableProjectListing } from '../types';

/**
 * The projects whose files cannot be read (a broken or newer-version project.json): each with
 * its file and the problem, so none vanishes from the list without a word.
 */
export function UnreadableProjects({ projects }: { projects: UnreadableProjectListing[] }) {
  if (projects.length === 0) return null;
  return (
    <section className="unreadable-projects" aria-labelledby="unreadable-title">
      <h2 id="unreadable-title">Unreadable projects</h2>
      <p>
        {projects.length === 1 ? 'This project' : 'These projects'} cannot be read. Fix or restore the file
        (mockdev leaves it as it is), and {projects.length === 1 ? 'it shows' : 'they show'} up above.
      </p>
      <ul>
        {projects.map((p) => (
          <li key={p.unreadable.file} className="error-box">
            <strong>{p.name ?? 'A project'}</strong>
            {p.id !== undefined && (
              <>
                {' '}
                (id <code>{p.id}</code>)
              </>
            )}{' '}
            — unreadable: <code className="mono">{p.unreadable.file}</code>
            <div className="unreadable-problem">{p.unreadable.problem}</div>
          </li>
        ))}
      </ul>
    </section>
  );
}
