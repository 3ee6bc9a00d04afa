import type { SummaryLanguage } from './summary-language.js';

/** Korean. */
export const korean: SummaryLanguage = {
  code: 'ko',
  name: 'Korean',
  sections: [
    {
      heading: '목표와 제약 조건',
      description:
        '사용자가 원하는 것, 사용자가 밝힌 요구 사항·선호·제한. 중요한 부분은 사용자의 표현 그대로.',
    },
    { heading: '진행 상황과 현재 상태', description: '지금까지 한 일과 현재 상황.' },
    { heading: '결정 사항과 이유', description: '내린 선택과 그 이유. 채택하지 않은 방법도 포함.' },
    {
      heading: '파일과 코드',
      description: '읽거나 만들거나 변경한 파일과 각 파일의 요점. 정확한 이름, 시그니처, 값.',
    },
    {
      heading: '오류와 해결',
      description: '발생한 오류, 그 원인, 해결 방법(또는 아직 해결되지 않았다는 사실).',
    },
    { heading: '남은 작업', description: '아직 해야 할 일.' },
    {
      heading: '다음 단계',
      description: '바로 다음에 할 작업. 삭제된 메시지 없이도 실행할 수 있을 만큼 구체적으로.',
    },
  ],
  prompt: {
    purpose:
      '당신은 오래된 메시지가 곧 컨텍스트에서 삭제될 에이전트의 작업 기억을 작성하고 있습니다. 에이전트는 이 요약, 산출물 기록, 원래 작업, 가장 최근 메시지만으로 작업을 이어 가므로, 필요한 사실은 모두 남기고 필요 없는 것은 쓰지 마세요.',
    previousSummary:
      '이전 요약 (새 메시지와 병합하세요. 여전히 맞는 내용은 유지하고, 바뀐 내용은 갱신하고, 더 이상 맞지 않는 내용은 삭제하세요):',
    conversation: '요약에 반영할 새 메시지:',
    artifactTrail:
      '도구 호출에서 기록한 산출물 기록 (파일과 명령은 별도로 그대로 보존됩니다. 참조만 하고 목록 전체를 옮겨 적지 마세요):',
    instructions: '추가 지시 사항: {{instructions}}',
    format: '요약은 Markdown으로 작성하고, 정확히 다음 섹션만 2단계 제목(##)으로 이 순서대로 사용하세요:',
    closing:
      '구체적으로 작성하세요. 정확한 파일 경로, 명령, 식별자, 숫자, 오류 메시지를 적으세요. 쓸 내용이 없는 섹션에는 "없음"이라고 쓰세요. 요약만 답하세요. 요약은 한국어로 작성하고, 제목도 위의 한국어 제목을 그대로 사용하세요. 코드, 경로, 명령, 오류 메시지는 원문 그대로 두세요.',
    noPreviousSummary: '(없음: 첫 번째 요약입니다)',
    noArtifactTrail: '(기록 없음)',
    noInstructions: '없음',
  },
  trail: {
    heading: '## 산출물 기록',
    states: {
      created: '생성: ',
      edited: '수정: ',
      deleted: '삭제: ',
      read: '읽음: ',
      named: '언급: ',
    },
    commands: '명령 (오래된 순, 표시가 없으면 성공):',
    errors: '오류:',
    folded: '접어 둔 오래된 기록: ',
    foldedUnits: {
      files: ['파일 {n}개', '파일 {n}개'],
      commands: ['명령 {n}개', '명령 {n}개'],
      errors: ['오류 {n}개', '오류 {n}개'],
    },
  },
  digest: {
    unavailable: '(요약 모델을 사용할 수 없어 아래 내용은 모델 없이 추출했습니다.)',
    task: '## 원래 작업',
    latestRequest: '## 최신 요청',
    previousSummary: '## 이전 요약',
    assistantNotes: '## 삭제된 부분에서 어시스턴트가 마지막으로 남긴 메모',
    none: '없음',
    noText: '(텍스트 없음)',
  },
};
