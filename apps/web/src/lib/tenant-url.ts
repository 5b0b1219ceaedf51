/**
 * The address of a tenant's console for the tenant card's domain link.
 * It keeps the current page's scheme and port, so it also works on http://demo.localhost:8080
 * in development and tests: the tenant's own host gives this page's origin, another domain
 * gets this page's protocol and (when it has one) port.
 */
export function tenantUrl(
  domain: string,
  location: Pick<Location, 'protocol' | 'hostname' | 'port' | 'origin'> = window.location,
): string {
  if (domain.toLowerCase() === location.hostname.toLowerCase()) return location.origin;
  return `${location.protocol}//${domain}${location.port ? `:${location.port}` : ''}`;
}
