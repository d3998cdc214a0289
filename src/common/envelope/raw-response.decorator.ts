import { SetMetadata } from '@nestjs/common';

export const RAW_RESPONSE = 'hr:raw-response';

/** The handler's return value is sent as it is, without the success envelope (RFC 6749 token). */
export const RawResponse = () => SetMetadata(RAW_RESPONSE, true);
