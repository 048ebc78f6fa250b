import type { EndpointInput } from './model/endpoint.js';

const json = (value: unknown): string => JSON.stringify(value, null, 2);

const users = [
  { id: 1, name: 'Ada Lovelace', email: 'ada@example.com', role: 'admin', createdAt: '2024-01-15T09:30:00Z' },
  {
    id: 2,
    name: 'Alan Turing',
    email: 'alan@example.com',
    role: 'member',
    createdAt: '2024-02-03T14:12:00Z',
  },
  {
    id: 3,
    name: 'Grace Hopper',
    email: 'grace@example.com',
    role: 'member',
    createdAt: '2024-03-21T08:05:00Z',
  },
];

/** The endpoints `init --with-examples` writes (SPEC part 2). */
export const EXAMPLE_ENDPOINTS: EndpointInput[] = [
  { name: 'List users', method: 'GET', path: '/api/users', status: 200, body: json(users) },
  { name: 'Get user', method: 'GET', path: '/api/users/:id', status: 200, body: json(users[0]) },
  {
    name: 'Create user',
    method: 'POST',
    path: '/api/users',
    status: 201,
    headers: { Location: '/api/users/4' },
    body: json({
      id: 4,
      name: 'Katherine Johnson',
      email: 'katherine@example.com',
      role: 'member',
      createdAt: '2024-04-01T10:00:00Z',
    }),
  },
  { name: 'Health check', method: 'GET', path: '/health', status: 200, body: json({ status: 'ok' }) },
];
