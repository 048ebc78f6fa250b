import type { Endpoint, ProjectListing } from '../types';

export interface EndpointTreeProps {
  project: ProjectListing;
  endpoints: Endpoint[];
  loading: boolean;
  /** The endpoint open in the editor. */
  openId?: string;
  /** Opens an endpoint in the editor (Enter, Edit, double click). */
  onOpen: (endpoint: Endpoint) => void;
  /** Opens the editor for a new endpoint with this path prefix ("Add Endpoint" on a folder). */
  onAdd: (pathPrefix: string) => void;
  /** Something changed through the tree (a delete, a toggle): reload the list. */
  onChanged: () => void;
}

// Placeholder: replaced by the folder tree (react-arborist).
export function EndpointTree({ endpoints, onOpen }: EndpointTreeProps) {
  return (
    <ul aria-label="Endpoints">
      {endpoints.map((e) => (
        <li key={e.id}>
          <button type="button" onClick={() => onOpen(e)}>
            {e.method} {e.path}
          </button>
        </li>
      ))}
    </ul>
  );
}
