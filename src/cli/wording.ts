import type { OptionName, Wording } from '../core/errors.js';

const FLAGS: Record<OptionName, string> = {
  force: '--force',
  overwrite: '--overwrite',
  port: '-p, --port',
  host: '--host',
  project: '-p, --project',
  path: '-p, --path',
  file: 'a file path',
  text: '"-" to read stdin',
  body: '-b, --body',
  format: '-f, --format',
  openapiVersion: '--openapi',
  strict: '--strict',
  asVariation: '--as-variation',
  name: '-n, --name',
  variables: '--var',
  secrets: '--secret',
  unset: '--unset',
  token: '--token-file <FILE> or --token - (read from stdin)',
  replace: '--replace',
  templates: '--templates',
  spec: '-s, --spec',
  url: 'the URL argument',
  document: 'the URL argument',
  includeHost: '--include-host',
  all: '--all',
  env: '--env',
};

/** How the CLI words what core hints point at: flags and commands. */
export const CLI_WORDING: Wording = {
  option: (name) => FLAGS[name],
  turnOn: (name) => `pass ${FLAGS[name]}`,
  action: (name, subject) =>
    ({
      listProjects: 'run "mockdev project list"',
      listEndpoints: `run "mockdev endpoint list ${subject ?? '<PROJECT>'}"`,
      listRequests: `run "mockdev requests list ${subject ?? '<PROJECT>'}"`,
      initProject: 'run "mockdev init" there',
      listServers: 'run "mockdev status"',
      activateLicense:
        'activate a license: run "mockdev license activate <KEY>", or "mockdev license activate-email <EMAIL>" to get one by e-mail, or "mockdev license trial <EMAIL>" to try Pro for 14 days',
      listEnvironments: `run "mockdev environment list ${subject ?? '<PROJECT>'}"`,
      listRecordings: 'run "mockdev recording list <ENDPOINT>"',
      importContract: `run "mockdev contract import ${subject ?? '<PROJECT>'} <URL>"`,
    })[name],
};
