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

// The UI as an installable web app: the service worker keeps its shell for an offline start
// (ui/service-worker.js). Browsers allow one on 127.0.0.1, localhost and HTTPS only; elsewhere
// (plain HTTP to another address) the UI works as a page.
if ('serviceWorker' in navigator && window.isSecureContext)
  navigator.serviceWorker.register('/sw.js').catch(() => undefined);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
