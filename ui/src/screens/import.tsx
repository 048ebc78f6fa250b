import { CurlImport } from '../import/curl-import';
import { FileImport } from '../import/file-import';
import { OpenApiImport } from '../import/openapi-import';
import '../import/import.css';
import type { ProjectScreenProps } from './registry';

/**
 * Import into a project: a file of any of the five formats (OpenAPI, HAR, Postman, Mockoon,
 * WireMock) previewed first; an OpenAPI document pasted (with its template and strict options);
 * one endpoint from a cURL command.
 */
export function ImportScreen({ project }: ProjectScreenProps) {
  return (
    <section className="screen import-screen" aria-labelledby="screen-title">
      <h1 id="screen-title">Import into {project.name}</h1>
      <FileImport project={project} />
      <OpenApiImport project={project} />
      <CurlImport project={project} />
    </section>
  );
}
