import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import { AuthUser } from '../common/auth/auth-user';
import { TokenService } from './token.service';

@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(private readonly tokens: TokenService) {
    super();
  }

  async validate(token: string): Promise<AuthUser | false> {
    return (await this.tokens.authenticate(token)) ?? false;
  }
}
