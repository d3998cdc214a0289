import { RouteConfig } from '@nestjs/platform-fastify';

/** Route config flag read by the envelope hook (envelope.hook.ts). */
export const RAW_RESPONSE = 'rawResponse';

/** The handler's return value is sent as it is, without the success envelope (RFC 6749 token). */
export const RawResponse = () => RouteConfig({ [RAW_RESPONSE]: true });
