import type { OptionName, Wording } from '../core/errors.js';

/**
 * How the admin API words hints for the web UI: what a person sees and does there (a screen, a
 * field, a checkbox), never a field's internal name or an API path. The UI asks for it with the
 * request header `X-Mockdev-Wording: ui` (ui/src/api/client.ts); any other caller gets the API's
 * own words (API_WORDING: fields and calls). docs/ui.md "Words".
 */
export const UI_WORDING_HEADER = 'x-mockdev-wording';

const FIELDS: Record<OptionName, string> = {
  force: 'Force',
  overwrite: 'Overwrite',
  port: 'Port',
  host: 'Host',
  project: 'Project',
  path: 'Path',
  file: 'File',
  text: 'the text box',
  body: 'Body',
  format: 'Format',
  openapiVersion: 'OpenAPI version',
  strict: 'Strict',
  asVariation: 'As a variation',
  name: 'Name',
  variables: 'Variables',
  secrets: 'Secrets',
  unset: 'Remove',
  token: 'Token',
  replace: 'Replace',
  templates: 'Templates',
  spec: 'Document URL',
  url: 'URL',
  document: 'File',
  includeHost: 'Host',
  all: 'All entries',
  env: 'Environment',
};

const field = (name: OptionName): string => (name === 'text' ? FIELDS.text : `the "${FIELDS[name]}" field`);

export const UI_WORDING: Wording = {
  option: field,
  turnOn: (name) => `tick "${FIELDS[name]}"`,
  action: (name) =>
    ({
      listProjects: 'see the projects on the Projects screen',
      listEndpoints: "see the project's endpoints on its Endpoints screen",
      listRequests: "see the project's requests in its Request log",
      initProject: 'create a project on the Projects screen',
      listServers: 'see which servers run on the Projects screen',
      activateLicense: 'activate a license in License',
      listEnvironments: "see the project's environments on its Environments screen",
      listRecordings: "see the endpoint's recordings on the Recordings screen",
      importContract: "import the project's contract on its Contract screen",
    })[name],
};
