import type * as z from 'zod';
import type { EnvironmentListSchema, EnvironmentViewSchema } from '../../../src/core/model/environment-views';
import type {
  CurlPreviewSchema,
  ImportFormatSchema,
  ImportReportSchema,
} from '../../../src/core/model/imports';
import type { LicenseStatusSchema } from '../../../src/core/model/license-status';

/** The admin API's answers the import, export, environments and license screens use (types only). */
export type ImportReport = z.output<typeof ImportReportSchema>;
export type ImportFormat = z.output<typeof ImportFormatSchema>;
export type CurlPreview = z.output<typeof CurlPreviewSchema>;
export type EnvironmentView = z.output<typeof EnvironmentViewSchema>;
export type EnvironmentList = z.output<typeof EnvironmentListSchema>;
export type ListedEnvironment = EnvironmentList['environments'][number];
export type LicenseStatus = z.output<typeof LicenseStatusSchema>;
