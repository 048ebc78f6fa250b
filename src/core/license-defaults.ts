/**
 * The license service's defaults, apart from license.ts (no zod, no crypto) so that the CLI's
 * help can name them without loading more.
 */

/**
 * Set by the build (scripts/build.mjs, from MOCKDEV_DEFAULT_LICENSE_URL at build time); not
 * defined when mockdev runs from its sources.
 */
declare const MOCKDEV_BUILD_LICENSE_URL: string | undefined;

/** The vendor's license service: the default of MOCKDEV_LICENSE_URL unless the build names another. */
export const VENDOR_LICENSE_URL = 'https://licenses.mockdev.dev';

/** Where e-mail activation and trials go when MOCKDEV_LICENSE_URL is not set (docs/license.md). */
export const DEFAULT_LICENSE_URL: string =
  typeof MOCKDEV_BUILD_LICENSE_URL === 'string' && MOCKDEV_BUILD_LICENSE_URL !== ''
    ? MOCKDEV_BUILD_LICENSE_URL
    : VENDOR_LICENSE_URL;

/** How long a trial key lasts (`mockdev license trial`, the license service). */
export const TRIAL_DAYS = 14;
