// Build-time constants of the bundles (esbuild `define`), from the environment of `npm run build`:
//
//   MOCKDEV_DEFAULT_LICENSE_URL  the license service mockdev asks when MOCKDEV_LICENSE_URL is not
//                                set (default: the vendor's, VENDOR_LICENSE_URL in
//                                src/core/license-defaults.ts); docs/license.md.
//
// Run from the sources (tsx), the constants are not defined and the code falls back to its own.

/** The `define` map of esbuild for an environment. */
export function buildDefines(env) {
  const url = env.MOCKDEV_DEFAULT_LICENSE_URL?.trim() ?? '';
  if (url !== '' && !/^https?:\/\/[^\s/]+/.test(url)) {
    throw new Error(`MOCKDEV_DEFAULT_LICENSE_URL must be an http(s) URL, not "${url}"`);
  }
  return { MOCKDEV_BUILD_LICENSE_URL: JSON.stringify(url.replace(/\/+$/, '')) };
}
