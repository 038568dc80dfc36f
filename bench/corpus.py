# ruff: noqa: E501  (sentences are data: one per line, however long)
"""Sentences for the charset-detection benchmark (``bench/bench_charset.py``).

Written for this project: short encyclopedia- and news-style sentences, several per
language, in the languages whose legacy encodings still turn up in form data.  Nothing
here is copied from elsewhere.  ``LEGACY`` lists, per language, the WHATWG encodings a
site in that language used before UTF-8.

The seed documents in ``../shared/seeds`` (Japanese, Chinese, Ukrainian prose) are read
at run time by the benchmark when they exist; they are never copied into the repository.
"""

from __future__ import annotations

SENTENCES: dict[str, list[str]] = {
    "ja": [
        "東京都は日本の首都であり、約千四百万人が暮らす世界有数の大都市である。",
        "富士山は静岡県と山梨県にまたがる活火山で、標高は三千七百七十六メートルと日本一の高さを誇る。",
        "気象庁によると、今年の桜の開花は例年より一週間ほど早くなる見込みだという。",
        "夏目漱石は明治時代を代表する小説家で、「吾輩は猫である」や「こころ」などの作品で知られている。",
        "新しい図書館は駅から歩いて五分の場所にあり、平日は午後九時まで利用することができます。",
        "日本語の文字には、ひらがな、カタカナ、漢字の三種類があり、それぞれ異なる役割を持っている。",
        "政府は来年度の予算案について、子育て支援と防災対策に重点を置く方針を明らかにした。",
        "京都には千年以上の歴史を持つ寺院や神社が数多く残っており、毎年多くの観光客が訪れる。",
    ],
    "zh-Hans": [
        "北京是中华人民共和国的首都，也是全国的政治、文化和国际交往中心。",
        "长江是亚洲第一长河，全长约六千三百公里，流经青海、西藏、四川等十一个省级行政区。",
        "据气象部门预测，今年夏天南方地区的降雨量将比往年明显增加。",
        "这家公司去年的销售额增长了百分之二十，主要得益于海外市场的快速发展。",
        "李白是唐代著名的浪漫主义诗人，被后人誉为“诗仙”。",
        "我们明天早上八点在学校门口集合，请大家不要迟到。",
        "上海位于长江入海口，是中国最大的经济中心和重要的国际港口城市。",
        "随着互联网的普及，越来越多的年轻人选择在网上购买日常生活用品。",
    ],
    "zh-Hant": [
        "臺北市是中華民國的首都，位於臺灣北部的臺北盆地，人口約兩百五十萬。",
        "香港是一個國際金融中心，以其繁忙的港口和高樓林立的天際線而聞名。",
        "根據中央氣象局的資料，今年颱風季節的雨量比過去十年的平均值還要多。",
        "孔子是春秋時期的思想家和教育家，儒家學派的創始人，對後世影響深遠。",
        "這間餐廳的牛肉麵非常有名，每天中午都有很多客人排隊等候。",
        "圖書館的開放時間為週一至週五上午九點到晚上九點。",
        "政府表示將在明年增加對偏遠地區學校的補助，以改善學生的學習環境。",
        "日月潭是臺灣最大的天然湖泊，湖水清澈，四周群山環繞，景色十分優美。",
    ],
    "ko": [
        "서울특별시는 대한민국의 수도이며 정치, 경제, 사회, 문화의 중심지이다.",
        "한글은 조선의 세종대왕이 백성을 위해 만든 문자로, 1443년에 창제되었다.",
        "기상청은 내일 전국에 비가 내리고 기온이 크게 떨어질 것이라고 예보했다.",
        "이 회사는 올해 새로운 스마트폰을 출시하여 해외 시장 점유율을 높일 계획이다.",
        "제주도는 한국에서 가장 큰 섬으로, 아름다운 자연 경관 덕분에 많은 관광객이 찾는다.",
        "도서관은 평일 오전 아홉 시부터 오후 여섯 시까지 운영됩니다.",
        "정부는 내년부터 청년들의 주거 안정을 위한 새로운 지원 정책을 시행하기로 했다.",
        "부산은 한국에서 두 번째로 큰 도시이며 세계적인 항구 도시로 알려져 있다.",
    ],
    "ru": [
        "Москва — столица Российской Федерации, крупнейший по численности населения город страны.",
        "Волга является самой длинной рекой в Европе и впадает в Каспийское море.",
        "По данным синоптиков, в ближайшие дни в центральных регионах ожидается сильное похолодание.",
        "Лев Николаевич Толстой — один из наиболее известных русских писателей и мыслителей.",
        "Новая станция метро откроется для пассажиров в конце следующего месяца.",
        "Озеро Байкал содержит около двадцати процентов мировых запасов пресной воды.",
        "Правительство утвердило программу развития транспортной инфраструктуры до 2030 года.",
    ],
    "uk": [
        "Київ — столиця та найбільше місто України, розташоване на річці Дніпро.",
        "Тарас Шевченко — український поет, письменник і художник, автор збірки «Кобзар».",
        "За прогнозом синоптиків, у вихідні на заході країни очікуються дощі та грози.",
        "Українська мова належить до східнослов'янської групи індоєвропейської мовної сім'ї.",
        "Університет оголосив про початок прийому заяв від вступників на наступний навчальний рік.",
        "Карпати — гірська система, що простягається через території кількох європейських держав.",
        "Біля старого ґанку росла велика яблуня, яку посадив ще дід.",
    ],
    "bg": [
        "София е столицата и най-големият град на Република България.",
        "Рила е най-високата планина на Балканския полуостров, а връх Мусала достига 2925 метра.",
        "Според синоптиците през следващата седмица температурите ще се повишат значително.",
        "Иван Вазов е един от най-известните български писатели и автор на романа „Под игото“.",
        "Черно море е вътрешно море, разположено между Югоизточна Европа и Мала Азия.",
        "Новата библиотека ще бъде открита за посетители в началото на следващия месец.",
    ],
    "pl": [
        "Warszawa jest stolicą i największym miastem Polski, położonym nad Wisłą.",
        "Mikołaj Kopernik był astronomem, który sformułował heliocentryczną teorię budowy Układu Słonecznego.",
        "Według prognozy synoptyków w najbliższy weekend na południu kraju spadnie śnieg.",
        "Tatry to najwyższe pasmo górskie w Polsce, a ich najwyższym szczytem są Rysy.",
        "Nowa linia tramwajowa połączy dworzec główny z osiedlami na obrzeżach miasta.",
        "Źródła podają, że zamek zbudowano w czternastym wieku z inicjatywy księcia.",
    ],
    "cs": [
        "Praha je hlavní a největší město České republiky, ležící na řece Vltavě.",
        "Karel Čapek byl český spisovatel, který jako první použil slovo robot.",
        "Podle předpovědi meteorologů bude o víkendu na horách sněžit a teploty klesnou pod nulu.",
        "Sněžka je nejvyšší hora Česka a nachází se v Krkonoších na hranici s Polskem.",
        "Nová knihovna bude otevřena pro veřejnost začátkem příštího měsíce.",
        "Většina obyvatel žije ve městech, zatímco venkovské obce se postupně vylidňují.",
    ],
    "hu": [
        "Budapest Magyarország fővárosa és egyben legnépesebb települése.",
        "A Balaton Közép-Európa legnagyobb tava, amely népszerű üdülőhely a nyári hónapokban.",
        "Petőfi Sándor a magyar irodalom egyik legismertebb költője volt.",
        "A meteorológusok szerint a hét második felében jelentős lehűlés várható az ország egész területén.",
        "Az új könyvtár a jövő hónap elején nyitja meg kapuit az olvasók előtt.",
        "A Duna Európa második leghosszabb folyója, amely tíz országon halad keresztül.",
    ],
    "de": [
        "Berlin ist die Hauptstadt der Bundesrepublik Deutschland und zugleich ihre bevölkerungsreichste Stadt.",
        "Die Zugspitze ist mit knapp dreitausend Metern der höchste Berg Deutschlands.",
        "Nach Angaben des Wetterdienstes wird es am Wochenende in ganz Süddeutschland kräftig schneien.",
        "Johann Wolfgang von Goethe gilt als einer der bedeutendsten Schöpfer deutschsprachiger Dichtung.",
        "Die Bürgerinnen und Bürger können ihre Anträge künftig auch über das Internet einreichen.",
        "Größere Städte müssen bis zum nächsten Jahr einen Plan für die Verringerung der Luftverschmutzung vorlegen.",
    ],
    "fr": [
        "Paris est la capitale de la France et la ville la plus peuplée du pays.",
        "La tour Eiffel, construite pour l'Exposition universelle de 1889, est l'un des monuments les plus visités au monde.",
        "Selon Météo-France, de fortes pluies sont attendues dans le sud-ouest du pays à partir de jeudi.",
        "Victor Hugo est un écrivain, poète et homme politique français, considéré comme l'un des plus importants écrivains de langue française.",
        "Les élèves pourront s'inscrire à la bibliothèque municipale dès la rentrée de septembre.",
        "Le château de Versailles fut la résidence des rois de France jusqu'à la Révolution.",
    ],
    "es": [
        "Madrid es la capital de España y la ciudad más poblada del país.",
        "El río Amazonas, que atraviesa varios países de Sudamérica, es el más caudaloso del mundo.",
        "Según la Agencia Estatal de Meteorología, las temperaturas bajarán considerablemente durante el fin de semana.",
        "Miguel de Cervantes es considerado la máxima figura de la literatura en español.",
        "El nuevo museo abrirá sus puertas al público el próximo mes de junio.",
        "¿Cuántos años tenía el niño cuando aprendió a leer y escribir?",
    ],
    "pt": [
        "Lisboa é a capital e a maior cidade de Portugal, situada na foz do rio Tejo.",
        "O Brasil é o maior país da América do Sul e o quinto maior do mundo em área territorial.",
        "De acordo com a previsão do tempo, a região Sul deverá registrar chuvas intensas nesta semana.",
        "Luís de Camões é considerado um dos maiores poetas da língua portuguesa.",
        "A nova estação de metrô será inaugurada no início do próximo ano, segundo a prefeitura.",
        "As exportações de café e açúcar cresceram significativamente em relação ao ano passado.",
    ],
    "tr": [
        "Ankara, Türkiye Cumhuriyeti'nin başkenti ve İstanbul'dan sonra en kalabalık ikinci şehridir.",
        "İstanbul Boğazı, Karadeniz'i Marmara Denizi'ne bağlayan önemli bir su yoludur.",
        "Meteoroloji Genel Müdürlüğü, hafta sonu ülkenin kuzey kesimlerinde kuvvetli yağış beklendiğini açıkladı.",
        "Nazım Hikmet, yirminci yüzyılın en önemli Türk şairlerinden biri olarak kabul edilir.",
        "Yeni kütüphane önümüzdeki ayın başında ziyaretçilere kapılarını açacak.",
        "Kapadokya, peri bacaları ve sıcak hava balonlarıyla ünlü bir turizm bölgesidir.",
    ],
    "el": [
        "Η Αθήνα είναι η πρωτεύουσα και η μεγαλύτερη πόλη της Ελλάδας.",
        "Ο Όλυμπος είναι το ψηλότερο βουνό της χώρας και σύμφωνα με τη μυθολογία η κατοικία των θεών.",
        "Σύμφωνα με την Εθνική Μετεωρολογική Υπηρεσία, τις επόμενες ημέρες αναμένονται ισχυρές βροχές.",
        "Ο Όμηρος θεωρείται ο συγγραφέας της Ιλιάδας και της Οδύσσειας.",
        "Το νέο μουσείο θα ανοίξει τις πόρτες του στο κοινό τον επόμενο μήνα.",
        "Η Κρήτη είναι το μεγαλύτερο νησί της Ελλάδας και το πέμπτο μεγαλύτερο της Μεσογείου.",
    ],
    "he": [
        "ירושלים היא בירת ישראל והעיר הגדולה ביותר במדינה.",
        "ים המלח הוא המקום הנמוך ביותר על פני כדור הארץ.",
        "לפי התחזית, בסוף השבוע צפויים גשמים עזים בצפון הארץ.",
        "חיים נחמן ביאליק נחשב לאחד מגדולי המשוררים העבריים בעת החדשה.",
        "הספרייה החדשה תיפתח לקהל הרחב בתחילת החודש הבא.",
        "תל אביב נוסדה בשנת 1909 והיא מרכז כלכלי ותרבותי חשוב.",
    ],
    "ar": [
        "القاهرة هي عاصمة جمهورية مصر العربية وأكبر مدنها من حيث عدد السكان.",
        "يعد نهر النيل أطول نهر في العالم، ويمر عبر عدة دول في شرق أفريقيا وشمالها.",
        "وفقا لهيئة الأرصاد الجوية، من المتوقع أن تنخفض درجات الحرارة بشكل ملحوظ خلال الأيام المقبلة.",
        "يعتبر المتنبي من أعظم شعراء اللغة العربية على مر العصور.",
        "سيفتح المتحف الجديد أبوابه للزوار في بداية الشهر المقبل.",
        "تقع مدينة مراكش في المغرب وتشتهر بأسواقها التقليدية وحدائقها الجميلة.",
    ],
    "vi": [
        "Hà Nội là thủ đô của nước Cộng hòa Xã hội chủ nghĩa Việt Nam.",
        "Sông Mê Kông chảy qua sáu quốc gia trước khi đổ ra Biển Đông.",
        "Theo dự báo của cơ quan khí tượng, miền Bắc sẽ có mưa lớn trong những ngày tới.",
        "Nguyễn Du là một nhà thơ lớn, tác giả của Truyện Kiều nổi tiếng.",
        "Thư viện mới sẽ mở cửa đón độc giả vào đầu tháng sau.",
        "Vịnh Hạ Long là một di sản thiên nhiên thế giới nằm ở tỉnh Quảng Ninh.",
    ],
    "th": [
        "กรุงเทพมหานครเป็นเมืองหลวงและเมืองที่มีประชากรมากที่สุดของประเทศไทย",
        "แม่น้ำเจ้าพระยาเป็นแม่น้ำสายสำคัญที่ไหลผ่านภาคกลางของประเทศ",
        "กรมอุตุนิยมวิทยาคาดว่าจะมีฝนตกหนักในภาคใต้ตลอดสัปดาห์นี้",
        "สุนทรภู่เป็นกวีเอกของไทยที่มีชื่อเสียงจากผลงานเรื่องพระอภัยมณี",
        "ห้องสมุดแห่งใหม่จะเปิดให้บริการแก่ประชาชนในต้นเดือนหน้า",
        "อาหารไทยมีรสชาติที่หลากหลาย ทั้งเปรี้ยว หวาน เค็ม และเผ็ด",
    ],
    "lt": [
        "Vilnius yra Lietuvos sostinė ir didžiausias šalies miestas.",
        "Nemunas yra ilgiausia Lietuvos upė, įtekanti į Kuršių marias.",
        "Sinoptikų teigimu, savaitgalį visoje šalyje numatomas žymus atšalimas.",
        "Maironis laikomas vienu žymiausių lietuvių poetų ir tautinio atgimimo šaukliu.",
        "Nauja biblioteka skaitytojams duris atvers kito mėnesio pradžioje.",
        "Kuršių nerija yra įtraukta į UNESCO pasaulio paveldo sąrašą.",
    ],
}

#: language -> the legacy WHATWG encodings its sites used (UTF-8 is tested for all).
LEGACY: dict[str, tuple[str, ...]] = {
    "ja": ("Shift_JIS", "EUC-JP", "ISO-2022-JP"),
    "zh-Hans": ("GBK",),
    "zh-Hant": ("Big5",),
    "ko": ("EUC-KR",),
    "ru": ("windows-1251", "KOI8-R", "ISO-8859-5", "IBM866"),
    "uk": ("windows-1251", "KOI8-U"),
    "bg": ("windows-1251", "ISO-8859-5"),
    "pl": ("windows-1250", "ISO-8859-2"),
    "cs": ("windows-1250", "ISO-8859-2"),
    "hu": ("windows-1250", "ISO-8859-2"),
    "de": ("windows-1252", "ISO-8859-15"),
    "fr": ("windows-1252", "ISO-8859-15"),
    "es": ("windows-1252", "ISO-8859-15"),
    "pt": ("windows-1252", "ISO-8859-15"),
    "tr": ("windows-1254",),
    "el": ("windows-1253", "ISO-8859-7"),
    "he": ("windows-1255", "ISO-8859-8"),
    "ar": ("windows-1256", "ISO-8859-6"),
    "vi": ("windows-1258",),
    "th": ("windows-874",),
    "lt": ("windows-1257", "ISO-8859-13", "ISO-8859-4"),
}

#: encoding -> family, for the benchmark's table.
FAMILY: dict[str, str] = {
    "UTF-8": "UTF-8",
    "Shift_JIS": "Japanese", "EUC-JP": "Japanese", "ISO-2022-JP": "Japanese",
    "GBK": "Chinese", "Big5": "Chinese", "EUC-KR": "Korean",
    "windows-1251": "Cyrillic", "KOI8-R": "Cyrillic", "KOI8-U": "Cyrillic",
    "ISO-8859-5": "Cyrillic", "IBM866": "Cyrillic",
    "windows-1250": "Central European", "ISO-8859-2": "Central European",
    "windows-1252": "Western", "ISO-8859-15": "Western",
    "windows-1254": "Turkish", "windows-1253": "Greek", "ISO-8859-7": "Greek",
    "windows-1255": "Hebrew", "ISO-8859-8": "Hebrew",
    "windows-1256": "Arabic", "ISO-8859-6": "Arabic",
    "windows-1257": "Baltic", "ISO-8859-13": "Baltic", "ISO-8859-4": "Baltic",
    "windows-1258": "Vietnamese", "windows-874": "Thai",
}

#: Sentences written after the scoring was tuned on ``SENTENCES``: the benchmark reports
#: them separately, as a check that the tuning did not just fit the sentences above.
HELDOUT: dict[str, list[str]] = {
    "ja": [
        "大阪府は近畿地方に位置し、古くから商業の中心地として栄えてきた。",
        "このアプリを使うと、スマートフォンから簡単に荷物の配達状況を確認できる。",
        "昨日の試合では、若い選手たちが最後まであきらめずに戦い、見事に逆転勝ちした。",
    ],
    "zh-Hans": [
        "黄河是中国第二长河，被称为中华民族的母亲河。",
        "市政府决定从下个月起延长地铁的运营时间，方便市民夜间出行。",
        "这本小说讲述了一个普通家庭在三十年间经历的种种变化。",
    ],
    "zh-Hant": [
        "阿里山位於嘉義縣，以日出、雲海和森林鐵路聞名。",
        "本校將於下週舉辦運動會，歡迎家長一同參加。",
        "這部電影改編自真實故事，描寫一位醫生在偏鄉服務的經歷。",
    ],
    "ko": [
        "경주는 신라의 옛 수도로, 불국사와 석굴암 같은 문화유산이 많이 남아 있다.",
        "이번 주말에는 전국적으로 맑은 날씨가 이어질 것으로 보인다.",
        "그는 어릴 때부터 음악을 좋아해서 피아노와 바이올린을 배웠다.",
    ],
    "ru": [
        "Санкт-Петербург был основан Петром Первым в 1703 году в устье реки Невы.",
        "Учёные обнаружили в Сибири останки древнего животного, жившего миллионы лет назад.",
        "Чтобы получить справку, необходимо заполнить заявление и приложить копию паспорта.",
    ],
    "uk": [
        "Львів — одне з найбільших міст на заході України, відоме своєю старовинною архітектурою.",
        "Щоб оформити замовлення, введіть своє ім'я, адресу та номер телефону.",
        "Цього року врожай пшениці виявився значно більшим, ніж очікували фермери.",
    ],
    "bg": [
        "Пловдив е вторият по големина град в България и един от най-старите в Европа.",
        "За да получите достъп до услугата, трябва да въведете своята парола.",
        "Днес в планинските райони се очаква обилен снеговалеж.",
    ],
    "pl": [
        "Kraków był przez wieki siedzibą polskich królów i ośrodkiem nauki.",
        "Aby zmienić hasło, należy kliknąć w link wysłany na adres e-mail.",
        "Wczoraj wieczorem na ulicach miasta zebrały się tysiące kibiców.",
    ],
    "cs": [
        "Brno je druhé největší město v České republice a centrum jižní Moravy.",
        "Pro přihlášení zadejte své uživatelské jméno a heslo.",
        "Děti si o prázdninách nejvíce užily koupání v řece a táboráky.",
    ],
    "hu": [
        "Debrecen az ország második legnagyobb városa, a Tiszántúl központja.",
        "A jelszó megváltoztatásához kattintson a levélben kapott hivatkozásra.",
        "Tegnap este több ezer ember gyűlt össze a főtéren a koncertre.",
    ],
    "de": [
        "München ist die Landeshauptstadt des Freistaates Bayern und bekannt für das Oktoberfest.",
        "Bitte geben Sie Ihre Postleitzahl und Ihre Straße ein, damit wir die Lieferung planen können.",
        "Die Mannschaft hat das Spiel nach einem späten Tor doch noch gewonnen.",
    ],
    "fr": [
        "Lyon est située au confluent du Rhône et de la Saône, dans le centre-est de la France.",
        "Veuillez vérifier votre adresse électronique avant de valider la commande.",
        "Les pêcheurs ont été surpris par la tempête à quelques kilomètres de la côte.",
    ],
    "es": [
        "Barcelona es la segunda ciudad más poblada de España y la capital de Cataluña.",
        "Para recuperar su contraseña, introduzca la dirección de correo electrónico asociada.",
        "Los vecinos celebraron la inauguración del nuevo parque con música y comida.",
    ],
    "pt": [
        "O Porto é a segunda maior cidade de Portugal e é famoso pelo seu vinho.",
        "Para concluir a inscrição, informe o seu endereço e o número de telefone.",
        "As crianças aprenderam a plantar árvores durante a visita à fazenda.",
    ],
    "tr": [
        "İzmir, Ege Denizi kıyısında yer alan ve Türkiye'nin üçüncü büyük şehri olan bir liman kentidir.",
        "Şifrenizi değiştirmek için size gönderilen bağlantıya tıklayın.",
        "Öğrenciler yaz tatilinde köylerindeki büyükanne ve büyükbabalarını ziyaret etti.",
    ],
    "el": [
        "Η Θεσσαλονίκη είναι η δεύτερη μεγαλύτερη πόλη της Ελλάδας και σημαντικό λιμάνι.",
        "Για να αλλάξετε τον κωδικό σας, πατήστε τον σύνδεσμο που σας στείλαμε.",
        "Τα παιδιά πέρασαν το καλοκαίρι στο χωριό των παππούδων τους.",
    ],
    "he": [
        "חיפה היא עיר נמל בצפון ישראל, השוכנת על מורדות הכרמל.",
        "כדי לשנות את הסיסמה, יש ללחוץ על הקישור שנשלח אליכם בדואר.",
        "הילדים בילו את חופשת הקיץ אצל סבא וסבתא בקיבוץ.",
    ],
    "ar": [
        "تقع مدينة الإسكندرية على ساحل البحر الأبيض المتوسط وأسسها الإسكندر الأكبر.",
        "لتغيير كلمة المرور، اضغط على الرابط المرسل إلى بريدك الإلكتروني.",
        "قضى الأطفال عطلة الصيف في قرية أجدادهم بين الحقول.",
    ],
    "vi": [
        "Thành phố Hồ Chí Minh là đô thị lớn nhất Việt Nam và là trung tâm kinh tế của cả nước.",
        "Để đổi mật khẩu, vui lòng nhấn vào đường liên kết trong thư.",
        "Bọn trẻ đã trải qua mùa hè ở quê cùng ông bà.",
    ],
    "th": [
        "เชียงใหม่เป็นจังหวัดใหญ่ในภาคเหนือที่มีวัดเก่าแก่จำนวนมาก",
        "หากต้องการเปลี่ยนรหัสผ่าน กรุณากดลิงก์ที่ส่งไปยังอีเมลของคุณ",
        "เด็ก ๆ ใช้เวลาช่วงปิดเทอมอยู่กับตายายที่ต่างจังหวัด",
    ],
    "lt": [
        "Kaunas yra antras pagal dydį Lietuvos miestas, įsikūręs Nemuno ir Neries santakoje.",
        "Norėdami pakeisti slaptažodį, spustelėkite nuorodą, kurią išsiuntėme el. paštu.",
        "Vaikai vasaros atostogas praleido pas senelius kaime prie ežero.",
    ],
}
