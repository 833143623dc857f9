import CBrlAPI
