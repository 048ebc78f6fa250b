import { CurlImport } from '../import/curl-import';
import { OpenApiImport } from '../import/openapi-import';
import '../import/import.css';
import type { ProjectScreenProps } from './registry';

/** Import into a project: an OpenAPI document, or one endpoint from a cURL command. */
export function ImportScreen({ project }: ProjectScreenProps) {
  return (
    <section className="screen import-screen" aria-labelledby="screen-title">
      <h1 id="screen-title">Import into {project.name}</h1>
      <OpenApiImport project={project} />
      <CurlImport project={project} />
    </section>
  );
}
