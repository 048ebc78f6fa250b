import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { prime } from './api/client';
import { App } from './app';
import './styles.css';

// What the first screen asks for, asked at once and side by side (see prime): the session,
// what every screen shares, and an endpoints screen's list and tree state.
{
  const [top, project, screen = 'endpoints'] = location.pathname.split('/').filter(Boolean);
  prime([
    '/session',
    '/projects',
    '/servers',
    '/settings',
    ...(top === 'projects' && project && screen === 'endpoints'
      ? [`/projects/${project}/endpoints`, `/projects/${project}/tree-state`]
      : []),
  ]);
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
