import fc from 'fast-check';

/**
 * Texts of every kind the estimator's guarantee covers, at least {@link guaranteedLength} characters long: natural
 * prose in many languages, data and encodings, and mixtures of them. The word lists were written for these
 * tests. A sentence is a random string of a language's common words: tokenizers cut text into words and know no
 * grammar, so words spaced and punctuated as the language writes them tokenize much as its prose does.
 */

/** The shortest text the guarantee covers. */
export const guaranteedLength = 1000;

/** How long a generated text is: from {@link guaranteedLength} to about four times that. */
const textLength = { min: guaranteedLength, max: 4 * guaranteedLength };

/** How a language writes a sentence: between words, inside it, and at its end. */
interface Orthography {
  /** Between two words: a space, or nothing for scripts written without spaces. */
  wordSeparator: string;
  /** Between two sentences of a paragraph. */
  sentenceSeparator: string;
  /** Written right after a word, before the word separator. */
  comma: string;
  /** What ends a sentence; the first is the most common and so is drawn most. */
  stops: readonly string[];
  /** Whether a sentence begins with a capital letter. */
  capitalized: boolean;
  /** The mark that opens a question or an exclamation (Spanish `¿`, `¡`), by the mark that closes it. */
  openers?: Readonly<Record<string, string>>;
}

const spacedLatin: Orthography = {
  wordSeparator: ' ',
  sentenceSeparator: ' ',
  comma: ',',
  stops: ['.', '.', '.', '?', '!'],
  capitalized: true,
};

const orthographies = {
  latin: spacedLatin,
  // French sets a space before `?` and `!`.
  french: { ...spacedLatin, stops: ['.', '.', '.', ' ?', ' !'] },
  spanish: { ...spacedLatin, openers: { '?': '¿', '!': '¡' } },
  uncased: { ...spacedLatin, capitalized: false },
  chinese: {
    wordSeparator: '',
    sentenceSeparator: '',
    comma: '，',
    stops: ['。', '。', '？', '！'],
    capitalized: false,
  },
  japanese: {
    wordSeparator: '',
    sentenceSeparator: '',
    comma: '、',
    stops: ['。', '。', '？'],
    capitalized: false,
  },
  arabic: { ...spacedLatin, comma: '،', stops: ['.', '.', '؟'], capitalized: false },
  devanagari: { ...spacedLatin, stops: ['।', '।', '?'], capitalized: false },
  // Thai runs the words of a phrase together and separates phrases and sentences with a space, without stops.
  thai: { wordSeparator: '', sentenceSeparator: ' ', comma: ' ', stops: [''], capitalized: false },
} as const satisfies Record<string, Orthography>;

/** The words of a list written one after the other, separated by spaces and line feeds. */
const wordsOf = (list: string) => list.trim().split(/\s+/);

interface Language {
  orthography: Orthography;
  words: readonly string[];
}

/**
 * Common words of each language, 40 to 60 of them, the most common (articles, particles, pronouns) first, with
 * the orthography its sentences are written in.
 */
const languages = {
  'Chinese (Simplified)': {
    orthography: orthographies.chinese,
    words: wordsOf(`
      的 了 在 和 是 很 也 都 一个 这个 我们 可以 因为 所以 但是 如果 已经 非常 今天 时间 工作 问题 学生
      老师 朋友 城市 国家 经济 发展 社会 文化 历史 生活 家庭 孩子 学校 医院 公司 市场 政府 技术 电脑 手机
      天气 早上 晚上 喜欢 认为 知道 需要 开始 继续 重要 简单 应该 那些 东西 觉得
    `),
  },
  'Chinese (Traditional)': {
    orthography: orthographies.chinese,
    words: wordsOf(`
      的 了 在 和 是 很 也 都 一個 這個 我們 可以 因為 所以 但是 如果 已經 非常 今天 時間 工作 問題 學生
      老師 朋友 城市 國家 經濟 發展 社會 文化 歷史 生活 家庭 孩子 學校 醫院 公司 市場 政府 技術 電腦 手機
      天氣 早上 晚上 喜歡 認為 知道 需要 開始 繼續 重要 簡單 應該 那些 東西 覺得
    `),
  },
  Japanese: {
    orthography: orthographies.japanese,
    words: wordsOf(`
      は が を に で と の も から まで ですね でした そして でも とても 私 今日 明日 会社 仕事 電車 駅
      学校 先生 友達 家族 時間 天気 雨 東京 日本 新しい 古い 大きい 小さい 食べる 飲みます 行きます
      来ました 見る 書いた 読みます 考える 思います 分かりません 勉強 問題 図書館 映画 音楽 料理 旅行 週末
      毎日 少し もう まだ
    `),
  },
  Korean: {
    orthography: orthographies.uncased,
    words: wordsOf(`
      우리는 오늘 내일 어제 학교에서 회사 친구와 가족 시간이 사람들이 서울 한국어를 공부합니다 먹었어요
      갔습니다 좋아합니다 생각합니다 이야기 문제가 정말 아주 조금 그리고 하지만 그래서 새로운 오래된 큰
      작은 날씨가 비가 책을 읽었다 음식 커피를 마셨어요 도시 나라 경제 사회 문화 역사 컴퓨터 전화 아침에
      저녁에 주말에 함께 다시 있습니다 없습니다
    `),
  },
  Russian: {
    orthography: orthographies.latin,
    words: wordsOf(`
      и в на с не что как когда но это я мы вы он она они время человек год день жизнь работа город страна
      дом слово вопрос книга дети друг говорить знать думать сделать читать писать видеть хороший новый
      большой маленький русский последний важный очень теперь всегда сегодня потом здесь только уже ещё
      потому
    `),
  },
  Ukrainian: {
    orthography: orthographies.latin,
    words: wordsOf(`
      і в на з не що як коли але це я ми ви він вона вони час людина рік день життя робота місто країна
      будинок слово питання книжка діти друг говорити знати думати зробити читати писати бачити гарний
      новий великий маленький український останній важливий дуже тепер завжди сьогодні потім тут тільки
      вже ще тому їжа сім’я ґанок європейський
    `),
  },
  Arabic: {
    orthography: orthographies.arabic,
    words: wordsOf(`
      أنا نحن هو هي هذا هذه في من إلى على مع عن كان يكون قال ذهب كتب قرأ يعمل يريد يعرف اليوم غدا أمس
      الوقت البيت المدرسة المدينة الكتاب الطالب المعلم العمل الناس العالم الحياة الماء الطعام كبير صغير
      جديد جميل مهم كثيرا أيضا لكن لأن عندما جدا السيارة الشمس العربية الحكومة الاقتصاد
    `),
  },
  Hebrew: {
    orthography: orthographies.uncased,
    words: wordsOf(`
      אני אנחנו הוא היא זה זאת של עם על את אבל כי גם רק מאוד היום מחר אתמול בית ספר ילד ילדים עבודה עיר
      ארץ מים אוכל חבר משפחה זמן שנה יום לילה בוקר גדול קטן חדש יפה חשוב הולך אוהב כותב קורא רוצה יודע
      חושב מדבר ירושלים ממשלה תלמידים מחשב
    `),
  },
  Hindi: {
    orthography: orthographies.devanagari,
    words: wordsOf(`
      मैं हम आप वह यह वे है हैं था थे का की के में से पर और लेकिन क्योंकि बहुत आज कल समय घर काम पानी खाना
      दोस्त परिवार शहर देश किताब स्कूल बच्चे लोग सरकार भाषा हिंदी नया बड़ा छोटा अच्छा ज़रूरी जाना आना करना
      देखना पढ़ना लिखना सोचता चाहते दिन रात सुबह
    `),
  },
  Thai: {
    orthography: orthographies.thai,
    words: wordsOf(`
      ที่ ของ ใน กับ ได้ และ แต่ ไม่ แล้ว ครับ ค่ะ เพราะ ฉัน เรา คุณ เขา วันนี้ พรุ่งนี้ เมื่อวาน ไป มา
      กิน ดื่ม ทำงาน เรียน อ่าน เขียน พูด รู้ คิด ชอบ ต้องการ บ้าน โรงเรียน โรงพยาบาล ตลาด เมือง ประเทศ
      ภาษา ไทย อาหาร น้ำ เวลา เพื่อน ครอบครัว หนังสือ รถ ใหญ่ เล็ก ใหม่ สวย ดี มาก
    `),
  },
  German: {
    orthography: orthographies.latin,
    words: wordsOf(`
      der die das und ist nicht ein eine mit auf für von sich auch aber wenn weil heute morgen immer schon
      noch sehr Zeit Jahr Haus Stadt Arbeit Kinder Frau Mann Straße Wasser Schule Bahnhof Wetter
      Geschichte Regierung Entwicklung Möglichkeit größer schön wichtig neue kleine über müssen können
      möchte gehen arbeiten schreiben gefahren Frühstück Tür grün Mädchen
    `),
  },
  French: {
    orthography: orthographies.french,
    words: wordsOf(`
      le la les un une des et est dans pour avec sur pas plus très aussi mais parce que qui aujourd'hui
      demain toujours déjà temps année maison ville travail enfants école été hôpital gouvernement société
      développement français première dernière petit grand nouvelle beaucoup être avoir faire aller écrire
      lire voilà où garçon fenêtre forêt théâtre
    `),
  },
  Spanish: {
    orthography: orthographies.spanish,
    words: wordsOf(`
      el la los las un una y es en con por para pero porque muy también hoy mañana siempre ya tiempo año
      casa ciudad trabajo niños escuela país gobierno historia información educación música pequeño grande
      nuevo bueno último más está están tenemos hacer ir escribir leer comer aquí allí después señor
      corazón árbol mujer días
    `),
  },
  Czech: {
    orthography: orthographies.latin,
    words: wordsOf(`
      já my ty on ona je jsou byl být mít a ale protože že v na s do z dnes zítra včera vždy už ještě
      velmi čas rok den město země práce škola dítě děti člověk řeka voda jídlo přítel rodina kniha nový
      starý velký malý dobrý důležitý český říkat dělat psát číst vidět mluvit příští ulice čtvrtek
    `),
  },
  Polish: {
    orthography: orthographies.latin,
    words: wordsOf(`
      ja my ty on ona jest są był być mieć i ale ponieważ że w na z do od dzisiaj jutro wczoraj zawsze już
      jeszcze bardzo czas rok dzień miasto kraj praca szkoła dziecko dzieci człowiek rzeka woda jedzenie
      przyjaciel rodzina książka nowy stary duży mały dobry ważny polski mówić robić pisać czytać widzieć
      źródło gość żółty ćwiczenie łóżko ślub
    `),
  },
  Indonesian: {
    orthography: orthographies.latin,
    words: wordsOf(`
      saya kami kita anda dia mereka ini itu dan atau tetapi karena yang di ke dari untuk dengan pada
      sudah belum akan sedang tidak bukan sangat hari besok kemarin rumah sekolah kantor kota negara
      pemerintah masyarakat pekerjaan makanan minuman air teman keluarga buku bahasa baru besar kecil baik
      penting pergi datang makan minum membaca menulis bekerja berbicara mengerti
    `),
  },
  Basque: {
    orthography: orthographies.latin,
    words: wordsOf(`
      eta da dira ere baina ni gu zu hura haiek hau hori edo oso gaur bihar atzo beti orain etxea herria
      hiria eskola lana ura janaria laguna familia liburua hizkuntza euskara berria handia txikia ona
      garrantzitsua joan etorri jan edan irakurri idatzi hitz egin ikusi dut dugu zen naiz gara zuen eguna
      gaua goizean mendia itsasoa nola zergatik baita
    `),
  },
  English: {
    orthography: orthographies.latin,
    words: wordsOf(`
      the of and to in is was that for it with this have from not but when we there can people time year
      day world life water house school work city country government history family friend child small
      large new old important always never often because write read think know understanding
      information development environment particularly temperature experience knowledge community
      neighbourhood
    `),
  },
} as const satisfies Record<string, Language>;

type LanguageName = keyof typeof languages;
const languageNames = Object.keys(languages) as LanguageName[];

/**
 * Items drawn one after another, each after a drawn separator, until the text is at least `length` characters
 * long: a whole text of different items, where a few items repeated would test only those few.
 */
function textOf(item: fc.Arbitrary<string>, separator: fc.Arbitrary<string>, length = textLength) {
  const nextItem = () => item;
  const nextSeparator = () => separator;
  return fc.record({ draw: fc.gen(), length: fc.integer(length) }).map(({ draw, length: target }) => {
    let text = draw(nextItem);
    while (text.length < target) text += draw(nextSeparator) + draw(nextItem);
    return text;
  });
}

/**
 * A word of the list, the earlier ones more often (the first about twice as often as the average, the last
 * rarely), as in real text, where the short function words are the most frequent and a long word is rare:
 * drawn evenly, a list's long words would make a prose no one writes.
 */
function commonFirst(words: readonly string[]) {
  const count = words.length;
  return fc
    .noBias(fc.integer({ min: 0, max: count * count - 1 }))
    .map((draw) => words[count - 1 - Math.floor(Math.sqrt(draw))]!);
}

/** A sentence: 3 to 14 words, perhaps a comma, and a stop. */
function sentence({ orthography, words }: Language) {
  return fc
    .record({
      words: fc.array(commonFirst(words), { minLength: 3, maxLength: 14 }),
      // A comma after this word, when it falls inside the sentence (in about one sentence in three).
      commaAfter: fc.nat({ max: 24 }),
      stop: fc.constantFrom(...orthography.stops),
    })
    .map(({ words: drawn, commaAfter, stop }) => {
      const parts = drawn.map((word, index) =>
        index === commaAfter && index < drawn.length - 1 ? word + orthography.comma : word,
      );
      let body = parts.join(orthography.wordSeparator);
      if (orthography.capitalized) body = body[0]!.toUpperCase() + body.slice(1);
      return (orthography.openers?.[stop] ?? '') + body + stop;
    });
}

/** Prose of one language: sentences, a line break after about one in five, a new paragraph after another. */
function prose(language: Language, length = textLength) {
  const { sentenceSeparator } = language.orthography;
  const separator = fc.constantFrom(sentenceSeparator, sentenceSeparator, sentenceSeparator, '\n', '\n\n');
  return textOf(sentence(language), separator, length);
}

// Data is drawn without fast-check's bias toward small values: hashes, keys and encrypted or compressed bytes
// are uniform, and biased draws are mostly zeros (`AAAA…` in base64), a different text.
const hexDigits = [...'0123456789abcdef'];
const base32Alphabet = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'];
const alphanumerics = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];

const stringOf = (alphabet: readonly string[], minLength: number, maxLength: number) =>
  fc.noBias(fc.array(fc.constantFrom(...alphabet), { minLength, maxLength })).map((units) => units.join(''));

const randomBytes = (minLength: number, maxLength: number) =>
  fc.noBias(fc.uint8Array({ minLength, maxLength })).map((array) => Buffer.from(array));

/** RFC 4648 base32, with its `=` padding. */
function base32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let text = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      text += base32Alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) text += base32Alphabet[(value << (5 - bits)) & 31];
  return text.padEnd(Math.ceil(text.length / 8) * 8, '=');
}

/** Items one a line, or with another separator between them, the same throughout the text. */
const lines = (item: fc.Arbitrary<string>, separators: readonly string[] = ['\n'], length = textLength) =>
  fc.constantFrom(...separators).chain((separator) => textOf(item, fc.constant(separator), length));

const uuid = stringOf(hexDigits, 32, 32).map(
  (hex) =>
    `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`,
);

const base64Url = (value: string | Uint8Array) => Buffer.from(value).toString('base64url');

const jsonWebToken = fc
  .record({
    subject: stringOf(alphanumerics, 4, 24),
    issuedAt: fc.integer({ min: 1_500_000_000, max: 1_900_000_000 }),
    signature: randomBytes(32, 64),
  })
  .map(
    ({ subject, issuedAt, signature }) =>
      `${base64Url('{"alg":"HS256","typ":"JWT"}')}.` +
      `${base64Url(JSON.stringify({ sub: subject, iat: issuedAt, exp: issuedAt + 3600 }))}.${base64Url(signature)}`,
  );

/** Words programmers name things with. */
const codeWords = wordsOf(`
  user name id get set count total max min index value key map list item items request response
  handler server client token message history config options parse load save update create delete is
  has enabled timeout retry cache buffer stream file path url http json error result status start end
`);

const identifierWords = fc.array(fc.constantFrom(...codeWords), { minLength: 1, maxLength: 4 });
const capitalize = (word: string) => word[0]!.toUpperCase() + word.slice(1);
const camelCase = identifierWords.map((words) => words[0] + words.slice(1).map(capitalize).join(''));
const snakeCase = identifierWords.map((words) => words.join('_'));

const urlHosts = ['example.com', 'api.example.org', 'cdn.example.net', 'docs.example.io', 'localhost:8080'];
const queryValue = fc.oneof(
  fc.constantFrom(...codeWords),
  fc.integer({ min: 0, max: 1_000_000 }).map(String),
  stringOf(hexDigits, 8, 32),
  stringOf(alphanumerics, 6, 20),
  // A value with spaces and punctuation, percent-encoded as a browser would send it.
  fc
    .array(fc.constantFrom(...codeWords, '&', '=', ' ', '/'), { minLength: 2, maxLength: 5 })
    .map((parts) => encodeURIComponent(parts.join(' '))),
);
const url = fc
  .record({
    secure: fc.boolean(),
    host: fc.constantFrom(...urlHosts),
    path: fc.array(fc.oneof(fc.constantFrom(...codeWords), fc.integer({ min: 1, max: 99_999 }).map(String)), {
      minLength: 1,
      maxLength: 5,
    }),
    query: fc.array(fc.tuple(camelCase, queryValue), { minLength: 1, maxLength: 6 }),
  })
  .map(
    ({ secure, host, path, query }) =>
      `${secure ? 'https' : 'http'}://${host}/${path.join('/')}?${query.map(([key, value]) => `${key}=${value}`).join('&')}`,
  );

// Unbiased: fast-check's bias draws the extremes (`9e-323`, `999999.9999999981`), which tools seldom print.
const numberValue = fc.noBias(
  fc.oneof(
    fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }).map(String),
    fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((value) => value.toFixed(2)),
    fc.double({ min: -1e6, max: 1e6, noNaN: true }).map(String),
    fc.integer({ min: 1000, max: 999_999_999 }).map((value) => value.toLocaleString('en-US')),
    fc.double({ min: 1e-12, max: 1e12, noNaN: true }).map((value) => value.toExponential(4)),
  ),
);

const whitespaceRun = fc
  .array(fc.constantFrom(' ', ' ', ' ', '\t', '\n'), { minLength: 1, maxLength: 40 })
  .map((units) => units.join(''));
const asciiPunctuation = [...'!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'];
/** Runs as text has them: one mark repeated (rules, underlines, ellipses) and the clusters that close code. */
const punctuationRun = fc.oneof(
  fc
    .tuple(fc.constantFrom(...'=-*#_~.!?'), fc.integer({ min: 2, max: 80 }))
    .map(([mark, count]) => mark.repeat(count)),
  fc
    .array(
      fc.constantFrom('});', ']]', '"),', '=>', '&&', '||', '::', '/*', '*/', '...', '?!', '`)', '}}', '</'),
      {
        minLength: 1,
        maxLength: 4,
      },
    )
    .map((clusters) => clusters.join('')),
);

const skinTones = ['\u{1f3fb}', '\u{1f3fc}', '\u{1f3fd}', '\u{1f3fe}', '\u{1f3ff}'];
const zeroWidthJoiner = '\u200d';
const regionalIndicator = (letter: string) => String.fromCodePoint(0x1f1e6 + letter.charCodeAt(0) - 65);
const countries = wordsOf('US GB FR DE JP UA BR IN CN KR ES IT NG MX CA EU');
const emoji = fc.oneof(
  fc.constantFrom('😀', '🎉', '🚀', '✅', '❤️', '🔥', '👀', '🤔', '1️⃣', '🏳️‍🌈', '🏴󠁧󠁢󠁳󠁣󠁴󠁿'),
  fc
    .tuple(fc.constantFrom('👍', '👋', '🙌', '👏', '🧑', '👩', '👨', '🤷'), fc.constantFrom('', ...skinTones))
    .map(([person, tone]) => person + tone),
  fc.constantFrom(...countries).map((code) => [...code].map(regionalIndicator).join('')),
  // Families and people at work: people joined by the zero-width joiner, some with a skin tone.
  fc
    .array(fc.tuple(fc.constantFrom('👨', '👩', '👧', '👦', '🧑'), fc.constantFrom('', '', ...skinTones)), {
      minLength: 2,
      maxLength: 4,
    })
    .map((people) => people.map(([person, tone]) => person + tone).join(zeroWidthJoiner)),
  fc
    .tuple(
      fc.constantFrom('👩', '👨', '🧑'),
      fc.constantFrom('', ...skinTones),
      fc.constantFrom('💻', '🚀', '🍳', '🔬'),
    )
    .map(([person, tone, work]) => person + tone + zeroWidthJoiner + work),
);

/** A line of code, as agents read it in files and diffs. */
const codeLine = fc
  .record({
    indent: fc.constantFrom('', '  ', '    ', '\t'),
    name: camelCase,
    callee: camelCase,
    argument: fc.oneof(snakeCase, numberValue, fc.constantFrom("'utf8'", 'null', '[]', '{}')),
    shape: fc.nat({ max: 3 }),
  })
  .map(({ indent, name, callee, argument, shape }) => {
    const statement = [
      `const ${name} = ${callee}(${argument});`,
      `if (${name}.length > ${argument}) return ${callee};`,
      `${name}.${callee} = await ${callee}(${name}, ${argument});`,
      `// ${name} is ${callee} ${argument}`,
    ][shape]!;
    return indent + statement;
  });

/** Data and encodings: the estimate must not be under the exact count by more than the guarantee allows. */
export const dataClasses = {
  'hex digests one a line': fc
    .constantFrom(32, 40, 64)
    .chain((digits) => lines(stringOf(hexDigits, digits, digits))),
  'random hex': stringOf(hexDigits, textLength.min, textLength.max),
  'base64 of random bytes': randomBytes(750, 3000).map((bytes) => bytes.toString('base64')),
  'base64 of random bytes wrapped at 76': randomBytes(750, 3000).map((bytes) =>
    (bytes.toString('base64').match(/.{1,76}/g) ?? []).join('\n'),
  ),
  base32: lines(randomBytes(10, 40).map(base32)),
  'UUIDs one a line': lines(uuid),
  'JSON Web Tokens': lines(jsonWebToken),
  'URLs with query strings': lines(url),
  'camelCase identifiers': lines(camelCase, ['\n', ', ', ' ']),
  'snake_case identifiers': lines(snakeCase, ['\n', ', ', ' ']),
  numbers: lines(numberValue, ['\n', ', ', ' ', '\t']),
  'whitespace runs': lines(whitespaceRun, ['x', '.', 'word', '}', '-']),
  'punctuation runs': lines(punctuationRun, ['\n', ' ', '']),
  'random punctuation': lines(stringOf(asciiPunctuation, 1, 30), ['\n', ' ', '']),
  'emoji sequences': lines(emoji, ['', ' ', '\n']),
  code: lines(codeLine),
} satisfies Record<string, fc.Arbitrary<string>>;

/** How long a piece of a mixture is: two pieces at least make a text the guarantee covers. */
const pieceLength = { min: guaranteedLength / 2, max: 1200 };

const proseOfAnyLanguage = (length = pieceLength) =>
  fc.constantFrom(...languageNames).chain((name) => prose(languages[name], length));

const pieceOfData = fc.oneof(
  lines(codeLine, ['\n'], pieceLength),
  lines(stringOf(hexDigits, 40, 64), ['\n'], pieceLength),
  lines(uuid, ['\n'], pieceLength),
  lines(url, ['\n'], pieceLength),
  lines(emoji, [' '], pieceLength),
  randomBytes(pieceLength.min, pieceLength.max).map((bytes) => bytes.toString('base64')),
);

/**
 * Prose and data, one after the other, and up to two more pieces of either, at least {@link guaranteedLength}
 * characters in all.
 */
const proseWithData = fc
  .tuple(
    proseOfAnyLanguage(),
    pieceOfData,
    fc.array(fc.oneof(proseOfAnyLanguage(), pieceOfData), { maxLength: 2 }),
    fc.constantFrom('\n\n', '\n', ' '),
  )
  .map(([prose, data, more, separator]) => [prose, data, ...more].join(separator));

/** Natural prose in every language: the estimate must be neither too far under nor too far over. */
export const naturalClasses = {
  ...Object.fromEntries(languageNames.map((name) => [name, prose(languages[name])])),
  'prose in two languages': fc
    .tuple(proseOfAnyLanguage(), proseOfAnyLanguage())
    .map(([first, second]) => `${first}\n\n${second}`),
} as Record<string, fc.Arbitrary<string>>;

/** Mixtures of prose with code and data, held to the lower bound only, as data is. */
export const mixedClasses = {
  'prose with code, hex and other data': proseWithData,
} satisfies Record<string, fc.Arbitrary<string>>;
