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
  /** False: the feature is not in this version of mockdev yet; the screen says so. */
  built: boolean;
}

/** The navigation, in order. Every CLI command group has its screen here. */
export const PROJECT_SCREENS: ScreenEntry[] = [
  { key: 'endpoints', label: 'Endpoints', built: true },
  { key: 'requests', label: 'Request log', built: true },
  { key: 'recordings', label: 'Recordings', built: true },
  { key: 'import', label: 'Import', built: true },
  { key: 'export', label: 'Export', built: true },
  { key: 'environments', label: 'Environments', built: true },
  { key: 'flows', label: 'Flows', built: true },
  { key: 'contract', label: 'Contract', built: false },
  { key: 'tunnels', label: 'Tunnels', built: true },
];

export const GLOBAL_SCREENS: ScreenEntry[] = [
  { key: 'settings', label: 'Settings', built: true },
  { key: 'license', label: 'License', built: true },
  { key: 'tls', label: 'TLS', built: true },
];

export type ProjectScreen = ComponentType<ProjectScreenProps>;
