import type { Wording } from '../core/errors.js';

/** How the MCP server words what core hints point at: tool arguments and tools. */
export const MCP_WORDING: Wording = {
  option: (name) => `the "${name}" argument`,
  turnOn: (name) => `set ${name}: true`,
  action: (name) =>
    ({
      listProjects: 'call list_projects',
      listEndpoints: 'call list_endpoints',
      listRequests: 'call list_requests',
      initProject: 'create a project with create_project',
      listServers: 'run "mockdev status" in a terminal',
      activateLicense: 'activate a license in a terminal with "mockdev license activate <KEY>"',
      listEnvironments: 'run "mockdev environment list <PROJECT>" in a terminal',
      listRecordings: 'run "mockdev recording list <ENDPOINT>" in a terminal',
      importContract: 'run "mockdev contract import <PROJECT> <URL>" in a terminal',
    })[name],
};
