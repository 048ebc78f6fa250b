import type { Endpoint, ProjectListing } from '../types';

export interface EndpointEditorProps {
  project: ProjectListing;
  /** The endpoint edited; absent: a new endpoint. */
  endpoint?: Endpoint;
  /** Values a new endpoint starts with (the folder's path prefix). */
  prefill?: { path?: string };
  onSaved: (endpoint: Endpoint) => void;
  onClose: () => void;
}

// Placeholder: replaced by the endpoint editor.
export function EndpointEditor({ endpoint, prefill }: EndpointEditorProps) {
  return <h2>{endpoint ? `${endpoint.method} ${endpoint.path}` : `New endpoint ${prefill?.path ?? ''}`}</h2>;
}
