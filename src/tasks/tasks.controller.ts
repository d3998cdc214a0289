import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { IdParamPipe } from '../common/validation/id-param.pipe';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../common/auth/auth-user';
import { AllowPendingPasswordChange, Authenticated, CurrentUser, Levels } from '../common/auth/access.decorators';
import { ApiErrors, ApiListEnvelope, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';
import { ListQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import { CreateTaskDto, TaskDto, TaskStatusDto } from './dto/task.dto';
import { ApiListQuery } from '../common/paging/api-list-query.decorator';
import { TASK_LIST_SPEC, TasksService } from './tasks.service';

@ApiTags('Tasks')
@ApiBearerAuth()
@Controller()
export class TasksController {
  constructor(private readonly tasks: TasksService) {}

  @Get('tasks')
  @Authenticated()
  @AllowPendingPasswordChange() // the task list says what to do: change the temporary password
  @ApiOperation({
    summary: "The caller's tasks, newest first",
  })
  @ApiListQuery(TASK_LIST_SPEC)
  @ApiListEnvelope(TaskDto)
  @ApiErrors(400, 401)
  list(@CurrentUser() caller: AuthUser, @Query() query: ListQueryDto): Promise<Page<TaskDto>> {
    return this.tasks.list(caller, query);
  }

  @Post('tasks')
  @HttpCode(200)
  @Levels('Admin')
  @ApiOperation({ summary: 'Add a task for a user (Admins)' })
  @ApiOkEnvelope(TaskDto)
  @ApiErrors(400, 401, 403)
  create(@Body() dto: CreateTaskDto): Promise<TaskDto> {
    return this.tasks.create(dto);
  }

  @Post('task-list/:id/status')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: "Set one of the caller's tasks Open or Completed (another user's task: 404)",
    description:
      "A task of a module's record follows it: a checklist item's task completes the item; reopening the task of an item " +
      'completed or cancelled: 409 INVALID_STATE.',
  })
  @ApiOkEnvelope(TaskDto)
  @ApiErrors(400, 401, 404, 409)
  setStatus(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Body() dto: TaskStatusDto,
  ): Promise<TaskDto> {
    return this.tasks.setStatus(caller, id, dto.status);
  }
}
