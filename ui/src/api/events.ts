import { useEffect, useRef } from 'react';
import type { FlowRun, Settings, TunnelRecord } from '../types';
import { EVENT_TYPES } from '../../../src/core/model/limits';
import { API } from './client';

/**
 * The live event stream (GET /api/v1/events): one EventSource for the whole page, opened with the
 * first subscriber; the browser reconnects by itself and the API replays what was missed from
 * Last-Event-ID. Event data as docs/admin-api.md lists it.
 */
export type EventName = (typeof EVENT_TYPES)[number];

export interface RequestEvent {
  id: string;
  projectId: string;
  endpointId: string | null;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  timestamp: string;
}
export interface ProjectsEvent {
  projectId: string;
  name?: string;
  change: 'created' | 'updated' | 'deleted';
}
export interface EndpointsEvent {
  projectId: string;
  name: string;
  change: 'updated';
  count: number;
}
/** A project's flows changed (from any process): as EndpointsEvent, `count` its flows. */
export type FlowsEvent = EndpointsEvent;
/** A project's resources' definitions changed (from any process): `count` its resources. */
export type ResourcesEvent = EndpointsEvent;
export interface ServerEvent {
  change: 'started' | 'stopped';
  server: { projectId: string; url: string; port: number; pid: number };
}
/** A tunnel started or stopped (by any process: the CLI, `serve --tunnel`, the UI). */
export interface TunnelEvent {
  change: 'started' | 'stopped';
  tunnel: TunnelRecord;
}
export interface EventData {
  request: RequestEvent;
  projects: ProjectsEvent;
  endpoints: EndpointsEvent;
  flows: FlowsEvent;
  resources: ResourcesEvent;
  server: ServerEvent;
  /** Every setting, after one changed (from any process). */
  settings: Settings;
  /** A run of a flow each time it is saved: started, a step changed, ended (from any server). */
  'flow-run': FlowRun;
  tunnel: TunnelEvent;
}

type Listener = (data: unknown) => void;
const listeners = new Map<EventName, Set<Listener>>();
let source: EventSource | undefined;
const statusListeners = new Set<(open: boolean) => void>();

function ensureSource(): void {
  if (source || typeof EventSource === 'undefined') return;
  source = new EventSource(`${API}/events`, { withCredentials: true });
  source.onopen = () => statusListeners.forEach((fn) => fn(true));
  source.onerror = () => statusListeners.forEach((fn) => fn(false));
  for (const name of EVENT_TYPES)
    source.addEventListener(name, (e) => {
      let data: unknown;
      try {
        data = JSON.parse((e as MessageEvent<string>).data);
      } catch {
        return;
      }
      listeners.get(name)?.forEach((fn) => fn(data));
    });
}

/** Restarts the stream (after signing in, when the first attempt was refused). */
export function reconnectEvents(): void {
  source?.close();
  source = undefined;
  if ([...listeners.values()].some((s) => s.size > 0)) ensureSource();
}

export function subscribe<N extends EventName>(name: N, fn: (data: EventData[N]) => void): () => void {
  let set = listeners.get(name);
  if (!set) listeners.set(name, (set = new Set()));
  set.add(fn as Listener);
  ensureSource();
  return () => set.delete(fn as Listener);
}

export function onStreamStatus(fn: (open: boolean) => void): () => void {
  statusListeners.add(fn);
  return () => statusListeners.delete(fn);
}

/** Calls `fn` for each event `name` while the component is mounted (the latest `fn` each time). */
export function useEvent<N extends EventName>(name: N, fn: (data: EventData[N]) => void): void {
  const ref = useRef(fn);
  ref.current = fn;
  useEffect(() => subscribe(name, (d) => ref.current(d)), [name]);
}
