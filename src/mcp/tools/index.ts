import type { ToolDefinition } from './define.js';
import { ENDPOINT_TOOLS } from './endpoint-tools.js';
import { findEndpointTool } from './find-endpoint-tool.js';
import { OPENAPI_TOOLS } from './openapi-tools.js';
import { PROJECT_TOOLS } from './project-tools.js';
import { REQUEST_TOOLS } from './request-tools.js';

/** The tools of SPEC 4.3, in the order clients list them. */
export const ALL_TOOLS: ToolDefinition[] = [
  ...PROJECT_TOOLS,
  ...ENDPOINT_TOOLS,
  findEndpointTool,
  ...REQUEST_TOOLS,
  ...OPENAPI_TOOLS,
];
