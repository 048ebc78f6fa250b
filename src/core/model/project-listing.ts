import * as z from 'zod';
import { ProjectSchema } from './project.js';

/**
 * A project in a list (`list --json`, GET /api/v1/projects, MCP list_projects): a readable one
 * with its facts, or one the store knows but cannot read (a broken or newer-version
 * project.json), listed as unreadable with the file and the problem rather than left out.
 */
export const ProjectListingEntrySchema = ProjectSchema.extend({
  dir: z.string().optional().describe('The folder of a project kept outside the data directory'),
});

export const UnreadableProjectSchema = z.object({
  id: z.string().optional().describe('Its id as known before its file broke, when it was'),
  name: z.string().optional().describe('Its name as known before its file broke, when it was'),
  dir: z.string().optional().describe('Its folder, for a project kept outside the data directory'),
  unreadable: z
    .object({
      file: z.string().describe('The file that cannot be read'),
      code: z.string().describe('CORRUPT_FILE, UNSUPPORTED_VERSION or IO_ERROR (docs/errors.md)'),
      problem: z.string().describe('What is wrong with the file, and how to fix it'),
    })
    .describe('Why the project cannot be read'),
});
export type UnreadableProjectListing = z.infer<typeof UnreadableProjectSchema>;

export const ProjectListingSchema = z.union([ProjectListingEntrySchema, UnreadableProjectSchema]);
export type ProjectListing = z.infer<typeof ProjectListingSchema>;

/** Whether a listed project could not be read. */
export const isUnreadable = (p: ProjectListing): p is UnreadableProjectListing => 'unreadable' in p;
export const isReadable = (p: ProjectListing): p is z.infer<typeof ProjectListingEntrySchema> =>
  !isUnreadable(p);
