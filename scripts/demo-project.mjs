// The demo project of `npm start`: `mockdev init --with-examples`, then what shows what mockdev
// can do, each made by the command a user would type (so the demo is also a tour of the CLI):
// templated answers (GET /api/users/42 answers user 42, POST /api/users echoes its body), a
// variation chosen by a rule (a user id that is not a number: 404), a delayed endpoint and a flow
// (an order accepted at once, its webhook called a second later on the demo server itself, so the
// request log shows it arrive).

/** `flow step add` to the demo's flow: its label, its trigger (`--on`) and its action. */
const step = (label, on, ...action) => [
  ...['flow', 'step', 'add', 'demo', 'order-shipped'],
  ...['--label', label, '--on', on, ...action],
];

/** The demo's endpoints and flow, as `mockdev` command lines run in order after `init`. */
export const DEMO_COMMANDS = [
  [
    'endpoint',
    'update',
    'demo',
    'Get user',
    '-b',
    '{{#seed params.id}}{"id": {{params.id}}, "name": "{{fullName}}", "email": "{{email}}", "role": "member"}{{/seed}}',
  ],
  [
    'endpoint',
    'variation',
    'add',
    'demo',
    'Get user',
    '-n',
    'not-found',
    '-s',
    '404',
    '-b',
    '{"error": "No user has the id {{params.id}}"}',
    '--when',
    'param.id~[^0-9]',
  ],
  [
    'endpoint',
    'update',
    'demo',
    'Create user',
    '-b',
    '{"id": 4, "created": true, "received": {{json body}}}',
  ],
  [
    'endpoint',
    'add',
    'demo',
    '-p',
    '/api/reports/monthly',
    '-n',
    'Slow report',
    '--delay',
    '1500',
    '-b',
    `{"month": "{{now 'YYYY-MM'}}", "orders": 128, "revenue": 5120.5}`,
  ],
  [
    'endpoint',
    'add',
    'demo',
    '-m',
    'POST',
    '-p',
    '/api/orders',
    '-n',
    'Place order',
    '-s',
    '202',
    '-b',
    '{"id": "{{uuid}}", "status": "pending"}',
  ],
  ['endpoint', 'add', 'demo', '-m', 'POST', '-p', '/api/webhooks/orders', '-n', 'Order webhook', '-s', '204'],
  [
    'flow',
    'create',
    'demo',
    '-n',
    'order-shipped',
    '-d',
    'POST /api/orders: 202 at once, the webhook 1 s later',
  ],
  step('accept', 'request:POST /api/orders', '--respond', 'POST /api/orders'),
  step(
    'ship',
    'after:accept+1000',
    '--callback',
    'POST http://{{headers.host}}/api/webhooks/orders',
    '-b',
    '{"id": "{{response.body.id}}", "status": "shipped"}',
  ),
];
