import type { ComponentType } from 'react';
import type { ProjectListing } from '../types';

/** What a project's screen is given: the project (from GET /projects, kept current by events). */
export interface ProjectScreenProps {
  project: ProjectListing;
}

export interface ScreenEntry {
  /** The path segment: /projects/<id>/<key>, or /<key> for a global screen. */
  key: string;
  label: string;
}

/** The navigation, in order. Every CLI command group has its screen here. */
export const PROJECT_SCREENS: ScreenEntry[] = [
  { key: 'endpoints', label: 'Endpoints' },
  { key: 'resources', label: 'Resources' },
  { key: 'requests', label: 'Request log' },
  { key: 'recordings', label: 'Recordings' },
  { key: 'import', label: 'Import' },
  { key: 'export', label: 'Export' },
  { key: 'environments', label: 'Environments' },
  { key: 'flows', label: 'Flows' },
  { key: 'contract', label: 'Contract' },
  { key: 'tunnels', label: 'Tunnels' },
];

export const GLOBAL_SCREENS: ScreenEntry[] = [
  { key: 'settings', label: 'Settings' },
  { key: 'license', label: 'License' },
  { key: 'tls', label: 'TLS' },
];

export type ProjectScreen = ComponentType<ProjectScreenProps>;
