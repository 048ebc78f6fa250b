import pkg from '../../package.json' with { type: 'json' };

/** The package version (the build inlines package.json). */
export const packageVersion = (): string => pkg.version;
