/**
 * The OpenAPI schema validators scripts/build.mjs compiles ahead of time (ajv standalone code)
 * and bundles under these names. They exist only in the build; from the sources, importing one
 * fails and meta-schema.ts compiles the schema itself.
 */
declare module 'virtual:openapi-validator-*' {
  const validate: (doc: unknown) => boolean;
  export default validate;
}
