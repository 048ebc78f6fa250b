import { useEffect, useRef, useState } from 'react';
import { onStreamStatus } from './api/events';
import { ConfirmProvider } from './components/confirm';
import { Link } from './components/link';
import { ErrorMessage, NoticesProvider } from './components/notices';
import { ServerControl } from './components/server-control';
import { SignInGate } from './components/sign-in';
import { navigate, projectPath, useLocation } from './router';
import { ContractScreen } from './screens/contract';
import { EndpointsScreen } from './screens/endpoints';
import { EnvironmentsScreen } from './screens/environments';
import { ExportScreen } from './screens/export';
import { FlowsScreen } from './screens/flows';
import { ImportScreen } from './screens/import';
import { LicenseScreen } from './screens/license';
import { ProjectsScreen } from './screens/projects';
import { RecordingsScreen } from './screens/recordings';
import { GLOBAL_SCREENS, PROJECT_SCREENS, type ProjectScreen } from './screens/registry';
import { RequestsScreen } from './screens/requests';
import { ResourcesScreen } from './screens/resources';
import { SettingsScreen } from './screens/settings';
import { TlsScreen } from './screens/tls';
import { TunnelsScreen } from './screens/tunnels';
import { SharedProvider, useShared } from './state';
import type { ProjectListing } from './types';

const PROJECT_SCREEN_COMPONENTS: Record<string, ProjectScreen> = {
  endpoints: EndpointsScreen,
  resources: ResourcesScreen,
  requests: RequestsScreen,
  recordings: RecordingsScreen,
  import: ImportScreen,
  export: ExportScreen,
  environments: EnvironmentsScreen,
  flows: FlowsScreen,
  contract: ContractScreen,
  tunnels: TunnelsScreen,
};

const LAST_PROJECT = 'mockdev.lastProject';

export function App() {
  return (
    <NoticesProvider>
      <SignInGate>
        <SharedProvider>
          <ConfirmProvider>
            <Shell />
          </ConfirmProvider>
        </SharedProvider>
      </SignInGate>
    </NoticesProvider>
  );
}

function findProject(projects: ProjectListing[] | undefined, ref: string | undefined) {
  if (!projects || !ref) return undefined;
  return projects.find((p) => p.id === ref) ?? projects.find((p) => p.name === ref);
}

function StreamStatus() {
  const [open, setOpen] = useState<boolean>();
  useEffect(() => onStreamStatus(setOpen), []);
  if (open !== false) return null;
  return (
    <span className="stream-status" role="status">
      Live updates paused: reconnecting…
    </span>
  );
}

function Shell() {
  const { parts } = useLocation();
  const { projects, projectsError } = useShared();
  const inProject = parts[0] === 'projects' && parts[1] !== undefined;
  const urlProject = inProject ? findProject(projects, parts[1]) : undefined;
  const remembered = findProject(projects, localStorage.getItem(LAST_PROJECT) ?? undefined);
  // On a project's screen the top bar shows that project, and no other: one not found (or not
  // listed yet) leaves the picker on "no project" rather than on the last one or the first.
  const current = inProject ? urlProject : (remembered ?? projects?.[0]);
  useEffect(() => {
    if (urlProject) localStorage.setItem(LAST_PROJECT, urlProject.id);
  }, [urlProject]);

  const screenKey = inProject ? (parts[2] ?? 'endpoints') : (parts[0] ?? 'projects');
  useEffect(() => {
    if (inProject && parts.length === 2 && urlProject)
      navigate(projectPath(urlProject.id, 'endpoints'), { replace: true });
  }, [inProject, parts.length, urlProject]);

  // After a move to another screen (not on the first one, nor when only the query changes),
  // focus goes to the new screen's heading: a keyboard user goes on from there, and a screen
  // reader says where they are.
  const screenId = `${parts[1] ?? ''}/${screenKey}`;
  const shownScreen = useRef(screenId);
  useEffect(() => {
    if (shownScreen.current === screenId) return;
    shownScreen.current = screenId;
    const heading = document.querySelector<HTMLElement>('main h1');
    if (!heading) return;
    heading.tabIndex = -1;
    heading.focus();
  }, [screenId]);

  const label = [...PROJECT_SCREENS, ...GLOBAL_SCREENS].find((s) => s.key === screenKey)?.label ?? 'Projects';
  useEffect(() => {
    document.title = `${label}${inProject && urlProject ? ` · ${urlProject.name}` : ''} · mockdev`;
  }, [label, inProject, urlProject]);

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link href="/projects" className="brand">
          mockdev
        </Link>
        {projects && projects.length > 0 && (
          <label className="project-picker">
            <span>Project</span>
            <select
              value={current?.id ?? ''}
              onChange={(e) => navigate(projectPath(e.target.value, inProject ? screenKey : 'endpoints'))}
            >
              {!current && (
                <option value="" disabled>
                  No project
                </option>
              )}
              {projects.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
        )}
        {current && <ServerControl project={current} />}
        <StreamStatus />
      </header>
      <nav className="sidebar" aria-label="Main">
        <ul>
          <li>
            <Link href="/projects" aria-current={screenKey === 'projects' && !inProject ? 'page' : undefined}>
              Projects
            </Link>
          </li>
        </ul>
        {current && (
          <>
            <h2 className="nav-heading">{current.name}</h2>
            <ul>
              {PROJECT_SCREENS.map((s) => (
                <li key={s.key}>
                  <Link
                    href={projectPath(current.id, s.key)}
                    aria-current={inProject && screenKey === s.key ? 'page' : undefined}
                  >
                    {s.label}
                  </Link>
                </li>
              ))}
            </ul>
          </>
        )}
        <h2 className="nav-heading">mockdev</h2>
        <ul>
          {GLOBAL_SCREENS.map((s) => (
            <li key={s.key}>
              <Link href={`/${s.key}`} aria-current={!inProject && screenKey === s.key ? 'page' : undefined}>
                {s.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" className="content" tabIndex={-1}>
        <ErrorMessage error={projectsError} />
        <Screen inProject={inProject} screenKey={screenKey} project={urlProject} projectRef={parts[1]} />
      </main>
    </div>
  );
}

function Screen(props: {
  inProject: boolean;
  screenKey: string;
  project?: ProjectListing;
  projectRef?: string;
}) {
  const { projects } = useShared();
  if (props.inProject) {
    if (!projects) return <p className="loading">Loading…</p>;
    if (!props.project)
      return (
        <section className="screen">
          <h1>Project not found</h1>
          <p>
            There is no project “{props.projectRef}” (it may have been deleted).{' '}
            <Link href="/projects">See the projects</Link>.
          </p>
        </section>
      );
    const Component = PROJECT_SCREEN_COMPONENTS[props.screenKey];
    if (Component) return <Component key={props.project.id} project={props.project} />;
  } else {
    if (props.screenKey === 'projects') return <ProjectsScreen />;
    if (props.screenKey === 'settings') return <SettingsScreen />;
    if (props.screenKey === 'license') return <LicenseScreen />;
    if (props.screenKey === 'tls') return <TlsScreen />;
  }
  return (
    <section className="screen">
      <h1>No such page</h1>
      <p>
        <Link href="/projects">Go to the projects</Link>.
      </p>
    </section>
  );
}
