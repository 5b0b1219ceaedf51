import { resolve } from 'node:path';
import type { RouteOptions } from 'fastify';
import { findWebDist } from '../../http/static-web';

/**
 * The routes of the built console's files. With the console built, the static-web plugin adds
 * one route per file of apps/web/dist (`/`, `/index.html`, `/assets/…`), and without it none:
 * route inventories tell them apart by how they were added (served from the build's folder),
 * never by a list of paths, so a check holds whether or not the console was built.
 */
export class ConsoleFiles {
  /** `METHOD url` of every file route the server added, HEAD included. */
  readonly keys = new Set<string>();
  private readonly build: string | undefined;

  constructor(build = findWebDist()) {
    this.build = build && resolve(build);
  }

  /** Pass to startTestServer's `onRoute`: keeps the routes that serve a file of the build. */
  readonly onRoute = (route: RouteOptions): void => {
    if (!this.servesBuildFile(route)) return;
    for (const method of [route.method].flat()) this.keys.add(`${method} ${route.url}`);
  };

  /** Whether the console was built, so the server serves its files (and its pages with 200). */
  get built(): boolean {
    return this.build !== undefined;
  }

  /** The paths of the GET file routes, e.g. to request each one. */
  get paths(): string[] {
    return [...this.keys].filter((key) => key.startsWith('GET ')).map((key) => key.slice(4));
  }

  has(key: string): boolean {
    return this.keys.has(key);
  }

  /** @fastify/static keeps the folder a route's file is served from in the route's config. */
  private servesBuildFile(route: RouteOptions): boolean {
    const rootPath = (route.config as { rootPath?: unknown } | undefined)?.rootPath;
    return (
      this.build !== undefined && typeof rootPath === 'string' && resolve(rootPath) === this.build
    );
  }
}
