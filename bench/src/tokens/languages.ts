/**
 * Everyday words of the languages the corpus writes prose in, beyond the English lists of vocabulary.ts: common
 * words of each language, the generator strings them into sentences. Written for this corpus.
 */
import { cyrillicWords } from './vocabulary.js';

export const frenchWords = words(
  'le la les un une des et ou mais dans avec pour sur sous entre est sont était avoir être fait faire peut doit ' +
    'nous vous ils elles très plus moins déjà encore toujours jamais après avant pendant maison ville pays ' +
    'travail fenêtre système réponse requête données fichier serveur utilisateur problème solution résultat ' +
    'modèle conversation mémoire résumé outil erreur message journée semaine année premier dernier nouveau ' +
    'ancien grand petit français européen économique général particulier nécessaire possible important',
);

export const germanWords = words(
  'der die das ein eine und oder aber mit für auf unter zwischen ist sind war haben sein wird kann muss ' +
    'wir ihr sie sehr mehr weniger schon noch immer nie nach vor während Haus Stadt Land Arbeit Fenster System ' +
    'Antwort Anfrage Daten Datei Server Benutzer Problem Lösung Ergebnis Modell Gespräch Speicher ' +
    'Zusammenfassung Werkzeug Fehler Nachricht Tag Woche Jahr erste letzte neue alte große kleine ' +
    'Änderung Größe Straße schön über natürlich wichtig notwendig möglich Entwicklungsumgebung Verfügbarkeit',
);

export const spanishWords = words(
  'el la los las un una y o pero en con para sobre bajo entre es son era tener ser hace hacer puede debe ' +
    'nosotros ustedes ellos muy más menos ya todavía siempre nunca después antes durante casa ciudad país ' +
    'trabajo ventana sistema respuesta solicitud datos archivo servidor usuario problema solución resultado ' +
    'modelo conversación memoria resumen herramienta error mensaje día semana año primero último nuevo viejo ' +
    'grande pequeño también información canción corazón niño señor rápido económico necesario posible',
);

export const russianWords = [
  ...cyrillicWords,
  ...words(
    'который также может должен были было будет после перед между система данные файл ответ вопрос ' +
      'решение задача память разговор краткое содержание инструмент сообщение неделя год первый последний ' +
      'новый старый большой маленький необходимо возможно важно государство развитие управление',
  ),
];

export const arabicWords = words(
  'في من إلى على عن مع هذا هذه ذلك التي الذي هو هي نحن هم كان يكون قد لا لم لن ما كل بعض بعد قبل ' +
    'عندما لأن لكن أو ثم أيضا جدا اليوم غدا المدينة البلد العمل النظام البيانات الملف الخادم المستخدم ' +
    'المشكلة الحل النتيجة النموذج المحادثة الذاكرة الملخص الأداة الخطأ الرسالة الأسبوع السنة الأول الأخير ' +
    'الجديد القديم الكبير الصغير مهم ضروري ممكن الحكومة التنمية الإدارة البرنامج الطلب الإجابة',
);

export const hindiWords = words(
  'और का की के में से पर को है हैं था थी थे यह वह हम आप वे कि जो भी नहीं बहुत अधिक कम पहले बाद ' +
    'जब क्योंकि लेकिन या फिर आज कल शहर देश काम खिड़की प्रणाली उत्तर अनुरोध डेटा फ़ाइल सर्वर उपयोगकर्ता ' +
    'समस्या समाधान परिणाम मॉडल बातचीत स्मृति सारांश उपकरण त्रुटि संदेश सप्ताह वर्ष पहला अंतिम नया पुराना ' +
    'बड़ा छोटा ज़रूरी संभव महत्वपूर्ण सरकार विकास प्रबंधन कार्यक्रम',
);

export const traditionalChineseWords = words(
  '我們 你們 他們 這個 那個 因為 所以 但是 如果 已經 可以 需要 問題 系統 使用者 資料 檔案 伺服器 請求 結果 ' +
    '模型 對話 記憶體 摘要 工具 錯誤 訊息 今天 明天 這裡 那裡 時間 學習 經濟 發展 國家 政府 關係 開始 ' +
    '應該 讓 說 為 從 還 會 與 對 過 兩 個 們 裡 體 變 實 點 麼 現 長 見 聽 門 東 車 電 書 語 話 認 識 ' +
    '處理 網路 軟體 硬體 設定 程式 視窗 連線 傳送 驗證 測試 記錄 環境 變數 執行 編譯 預設 權限 歷史 鐘 龍 歡迎 謝謝',
);

function words(list: string): string[] {
  return list.split(' ');
}
