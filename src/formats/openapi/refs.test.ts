import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DocumentSet } from './refs.js';
import { sampleFromSchema } from './sample.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ROOT = 'file:///work/api/openapi.yaml';

const deref = (doc: Obj, dialect: '2.0' | '3.0' | '3.1' = '3.1') => {
  const set = new DocumentSet(ROOT, doc, dialect);
  return set.dereference() as { value: Obj; problems: { pointer: string; ref: string; reason: string }[] };
};

const doc31 = (schemas: Obj, responseSchema: Obj): Obj => ({
  openapi: '3.1.1',
  info: { title: 'T', version: '1' },
  paths: {
    '/items': {
      get: {
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: responseSchema } } },
        },
      },
    },
  },
  components: { schemas },
});

const responseSchema = (value: Obj): Obj =>
  value.paths['/items'].get.responses['200'].content['application/json'].schema;

describe('DocumentSet (OpenAPI $ref resolution)', () => {
  it('3.1: resolves $ref relative to the nearest $id, and $anchor', () => {
    const { value, problems } = deref(
      doc31(
        {
          Pet: {
            $id: 'https://example.com/schemas/pet',
            type: 'object',
            properties: { id: { type: 'integer' } },
          },
          Tag: { $anchor: 'tag', type: 'string', enum: ['a'] },
        },
        {
          $id: 'https://example.com/schemas/page',
          type: 'object',
          properties: {
            items: { type: 'array', items: { $ref: 'pet' } }, // https://example.com/schemas/pet
            tag: { $ref: `${ROOT}#tag` },
          },
        },
      ),
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(sampleFromSchema(responseSchema(value)), { items: [{ id: 0 }], tag: 'a' });
  });

  it('3.1: $dynamicRef takes the item type the outermost schema binds (Scalar galaxy PaginatedResource)', () => {
    const paginated = {
      $id: 'https://example.com/schemas/Paginated',
      $defs: { itemType: { $dynamicAnchor: 'itemType', not: {} } },
      type: 'object',
      properties: {
        data: { type: 'array', items: { $dynamicRef: '#itemType' } },
        total: { type: 'integer' },
      },
    };
    const planet = { type: 'object', properties: { name: { type: 'string', example: 'Mars' } } };
    const moon = { type: 'object', properties: { orbit: { type: 'integer', example: 7 } } };
    const doc = doc31(
      { Paginated: paginated, Planet: planet, Moon: moon },
      {
        $id: 'https://example.com/schemas/PaginatedPlanets',
        $defs: { itemType: { $dynamicAnchor: 'itemType', $ref: '#/components/schemas/Planet' } },
        // Relative to the $id this names nothing; as the document's own pointer it does.
        $ref: '#/components/schemas/Paginated',
      },
    );
    doc.paths['/moons'] = {
      get: {
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': {
                schema: {
                  $id: 'https://example.com/schemas/PaginatedMoons',
                  $defs: { itemType: { $dynamicAnchor: 'itemType', $ref: '#/components/schemas/Moon' } },
                  $ref: 'Paginated', // relative to the $id: https://example.com/schemas/Paginated
                },
              },
            },
          },
        },
      },
    };
    const { value, problems } = deref(doc);
    assert.deepEqual(problems, []);
    assert.deepEqual(sampleFromSchema(responseSchema(value)), { data: [{ name: 'Mars' }], total: 0 });
    const moons = value.paths['/moons'].get.responses['200'].content['application/json'].schema;
    assert.deepEqual(sampleFromSchema(moons), { data: [{ orbit: 7 }], total: 0 });
    // The generic schema itself is left as it is, bound to its own default.
    assert.deepEqual(value.components.schemas.Paginated.properties.data.items, {
      $dynamicAnchor: 'itemType',
      not: {},
    });
    assert.equal(
      doc.components.schemas.Paginated.properties.data.items.$dynamicRef,
      '#itemType',
      'input unchanged',
    );
  });

  it('3.0 and 2.0: $id means nothing, $refs are relative to the document', () => {
    const doc = {
      openapi: '3.0.3',
      info: { title: 'T', version: '1' },
      paths: {},
      components: {
        schemas: {
          A: { $id: 'https://elsewhere.example/a', properties: { b: { $ref: '#/components/schemas/B' } } },
          B: { type: 'string' },
        },
      },
    };
    const { value, problems } = deref(doc, '3.0');
    assert.deepEqual(problems, []);
    assert.deepEqual(value.components.schemas.A.properties.b, { type: 'string' });
  });

  it('keeps cycles as object cycles and shares a target between its references', () => {
    const doc = doc31(
      {
        Node: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
            parent: { $ref: '#/components/schemas/Node', description: 'up' },
          },
        },
      },
      { $ref: '#/components/schemas/Node' },
    );
    const { value, problems } = deref(doc);
    assert.deepEqual(problems, []);
    const node = value.components.schemas.Node;
    assert.equal(responseSchema(value), node);
    assert.equal(node.properties.children.items, node, 'a cycle stays a cycle');
    // A $ref with an annotation beside it: the annotation is laid over the (still incomplete) target.
    assert.equal(node.properties.parent.description, 'up');
    assert.equal(node.properties.parent.allOf[0], node);
    assert.deepEqual(sampleFromSchema(node), { name: 'string', children: [] });
  });

  it('a $ref beside schema keywords applies with them (allOf); beside annotations it is overlaid', () => {
    const doc = doc31(
      { Base: { type: 'object', properties: { id: { type: 'integer' } } } },
      {
        type: 'object',
        properties: {
          more: { $ref: '#/components/schemas/Base', properties: { extra: { type: 'boolean' } } },
          described: { $ref: '#/components/schemas/Base', description: 'the base', example: { id: 9 } },
        },
      },
    );
    const { value } = deref(doc);
    const s = responseSchema(value);
    assert.deepEqual(sampleFromSchema(s), { more: { id: 0, extra: true }, described: { id: 9 } });
    assert.equal(s.properties.described.description, 'the base');
  });

  it('leaves $refs in example values, extensions and enums as they are', () => {
    const example = { $ref: '#/nowhere' };
    const doc = doc31(
      {},
      { type: 'object', example, 'x-note': { $ref: '#/nowhere' }, enum: [{ $ref: '#/x' }] },
    );
    const { value, problems } = deref(doc);
    assert.deepEqual(problems, []);
    assert.equal(responseSchema(value).example, example);
  });

  it('reports each reference that cannot be resolved, where it is written, and leaves it as written', () => {
    const doc = doc31(
      { A: { type: 'object', properties: { b: { $ref: '#/components/schemas/Missing' } } } },
      { $ref: 'https://example.com/remote.json#/Pet' },
    );
    const { value, problems } = deref(doc);
    assert.deepEqual(
      problems.map((p) => [p.pointer, p.ref]),
      [
        [
          '/paths/~1items/get/responses/200/content/application~1json/schema',
          'https://example.com/remote.json#/Pet',
        ],
        ['/components/schemas/A/properties/b', '#/components/schemas/Missing'],
      ],
    );
    assert.match(problems[0]!.reason, /does not fetch documents from the network/);
    assert.match(problems[1]!.reason, /"#\/components\/schemas\/Missing" does not exist .*no "Missing"/);
    assert.deepEqual(value.components.schemas.A.properties.b, { $ref: '#/components/schemas/Missing' });
  });

  it('asks for the files $refs name, resolves into them, and bundles them for validation', () => {
    const root = {
      openapi: '3.0.3',
      info: { title: 'T', version: '1' },
      paths: { '/pets': { $ref: 'paths/pets.yaml' } },
    };
    const set = new DocumentSet(ROOT, root, '3.0');
    assert.deepEqual(set.missing(), ['file:///work/api/paths/pets.yaml']);
    set.add(
      'file:///work/api/paths/pets.yaml',
      {
        get: {
          responses: {
            '200': {
              description: 'ok',
              content: { 'application/json': { schema: { $ref: '../schemas.yaml#/Pet' } } },
            },
          },
        },
      },
      '3.0',
    );
    assert.deepEqual(set.missing(), ['file:///work/api/schemas.yaml']);
    set.add(
      'file:///work/api/schemas.yaml',
      { Pet: { type: 'object', properties: { name: { type: 'string' } } } },
      '3.0',
    );
    assert.deepEqual(set.missing(), []);
    const { value, problems } = set.dereference();
    assert.deepEqual(problems, []);
    const pets = (value as Obj).paths['/pets'];
    assert.deepEqual(pets.get.responses['200'].content['application/json'].schema, {
      type: 'object',
      properties: { name: { type: 'string' } },
    });
    const bundle = set.bundle();
    assert.equal(
      (bundle.value as Obj).paths['/pets'].get.responses['200'].content['application/json'].schema.type,
      'object',
    );
    assert.deepEqual(bundle.origins.get('/paths/~1pets'), {
      uri: 'file:///work/api/paths/pets.yaml',
      pointer: '',
    });
    assert.equal(root.paths['/pets'].$ref, 'paths/pets.yaml', 'input unchanged');
  });

  it('a file that cannot be read is reported through the $refs that need it', () => {
    const set = new DocumentSet(
      ROOT,
      { openapi: '3.0.3', info: { title: 'T', version: '1' }, paths: { '/a': { $ref: 'gone.yaml' } } },
      '3.0',
    );
    assert.deepEqual(set.missing(), ['file:///work/api/gone.yaml']);
    set.markUnreadable('file:///work/api/gone.yaml', 'Cannot read gone.yaml: no such file');
    assert.deepEqual(set.missing(), []);
    const { problems } = set.dereference();
    assert.deepEqual(problems, [
      { uri: ROOT, pointer: '/paths/~1a', ref: 'gone.yaml', reason: 'Cannot read gone.yaml: no such file' },
    ]);
  });
});
