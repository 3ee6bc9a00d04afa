/** Host names that reach only this machine. */
const loopbackNames = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Whether a host name or address is reachable only from this machine. */
export function isLoopbackHost(host: string): boolean {
  return loopbackNames.has(host.toLowerCase());
}

/** The host name of a `Host` header (`127.0.0.1:4321`, `[::1]:80`, `localhost`), without its port. */
export function hostnameOfHeader(header: string | undefined): string | undefined {
  if (header === undefined || header === '') return undefined;
  const bracketed = /^(\[[^\]]*\])(:\d+)?$/.exec(header);
  if (bracketed !== null) return bracketed[1];
  return header.replace(/:\d+$/, '');
}
