import { RouteConfigPart } from '../http/route-config';

/** Route config flag read by the envelope hook (envelope.hook.ts). */
export const RAW_RESPONSE = 'rawResponse';

/** The handler's return value is sent as it is, without the success envelope (RFC 6749 token). */
export const RawResponse = () => RouteConfigPart({ [RAW_RESPONSE]: true });
