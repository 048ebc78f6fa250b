export { parseDocumentText, detectFormat, locatePointer } from './document-text.js';
export {
  convertOpenApi,
  countOperations,
  type ConvertedDocument,
  type ConvertedOperation,
} from './import.js';
export { exportOpenApiDocument, type OpenApiVersion, type ExportProject } from './export.js';
export { addResourceOperations } from './export-resources.js';
export { sampleFromSchema, type SampleOptions } from './sample.js';
